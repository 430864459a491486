import { Entity } from '@mikro-orm/core';
import { ObjectType } from 'type-graphql';
import { Audited } from '../../../entities/tenant-scoped';
import { TextColumn } from '../../../entities/columns';

/** What Supplier fields mean, shared with the inputs that set them. */
export const SUPPLIER_DOCS = {
  name: 'Name of the supplier.',
  email: "The supplier's e-mail address.",
} as const;

@Entity({ tableName: 'supplier' })
@ObjectType({ description: 'A supplier the tenant buys from.' })
export class Supplier extends Audited {
  @TextColumn({ nullable: false, description: SUPPLIER_DOCS.name })
  name!: string;

  @TextColumn({ description: SUPPLIER_DOCS.email })
  email?: string | null;
}
