import { Entity } from '@mikro-orm/core';
import { ObjectType } from 'type-graphql';
import { Audited } from '../../../entities/tenant-scoped';
import { TextColumn } from '../../../entities/columns';

/** What Subsidiary fields mean, shared with the inputs that set them. */
export const SUBSIDIARY_DOCS = {
  name: 'Name of the subsidiary.',
  color: 'Colour shown for the subsidiary (CSS colour).',
} as const;

/** A legal entity or branch of the tenant; records with a subsidiaryId are scoped to it. */
@Entity({ tableName: 'subsidiary' })
@ObjectType({ description: 'A subsidiary (branch) of the tenant.' })
export class Subsidiary extends Audited {
  @TextColumn({ nullable: false, description: SUBSIDIARY_DOCS.name })
  name!: string;

  @TextColumn({ description: SUBSIDIARY_DOCS.color })
  color?: string | null;
}
