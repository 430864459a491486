import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * A tenant's own limits on its stored files, one row per tenant, absent until it changes the
 * deployment's defaults; a null limit is the default's.
 */
@Entity({ tableName: 'file_settings' })
export class FileSettings {
  @PrimaryKey({ type: 'uuid' })
  tenantId!: string;

  @Property({ type: 'bigint', runtimeType: 'number', nullable: true })
  maxFileSize: number | null = null;

  /** Media types it may store (`image/*` prefixes, `*` for any). */
  @Property({ type: 'text[]', nullable: true })
  allowedTypes: string[] | null = null;

  @Property({ type: 'bigint', runtimeType: 'number', nullable: true })
  quotaBytes: number | null = null;
}
