import { Entity, Property } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { Permission } from '../permissions/catalog';
import { TenantScoped } from './tenant-scoped';
import { DateTimeColumn, TextColumn, UuidColumn } from './columns';

/**
 * A credential of an integration (docs/security.md, "API keys"): a principal of its own, whose
 * permissions are those it was given that its creator still holds at the moment of use. Only a
 * SHA-256 hash of its secret is stored.
 */
@Entity({ tableName: 'api_key' })
@ObjectType({ description: 'An API key of an integration (its secret is never shown again).' })
export class ApiKey extends TenantScoped {
  @TextColumn({ nullable: false, description: 'What the key is for.' })
  name!: string;

  @TextColumn({
    nullable: false,
    description: 'The start of the key (`bms_` and its ids), to recognise it; not a secret.',
  })
  hint!: string;

  /** Hex SHA-256 of the key's secret part: the key has 256 random bits, so no slow hash is needed. */
  @Property({ type: 'text' })
  secretHash!: string;

  @Property({ type: 'text[]' })
  @Field(() => [Permission], {
    description: "The permissions the key may use (within its creator's at each use).",
  })
  permissions: string[] = [];

  @UuidColumn({ description: 'When set, the key reaches only this subsidiary.' })
  subsidiaryId?: string | null;

  @UuidColumn({ description: 'When set, the key reaches only this project.' })
  projectId?: string | null;

  @DateTimeColumn({ description: 'When the key stops working (never when null).' })
  expiresAt?: Date | null;

  @DateTimeColumn({ description: 'When the key was revoked; a revoked key is refused.' })
  revokedAt?: Date | null;

  @DateTimeColumn({ description: 'When the key was last used (kept to the minute).' })
  lastUsedAt?: Date | null;

  @UuidColumn({
    nullable: false,
    description: 'The user who created the key; it acts within their permissions.',
  })
  creatorId!: string;
}
