import { randomUUID } from 'node:crypto';
import { Entity, Enum, Index, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { partialIndex } from './index-repository';

export type TenantExportStatus = 'PENDING' | 'RUNNING' | 'DONE' | 'FAILED';

/**
 * An export of a whole tenant a super-admin asked for: a job the export worker claims and reports
 * on (src/jobs/tenant-exports.ts, its statements in src/jobs/tenant-export-repository.ts), and a
 * record the tenant's super-admin reads (`tenantExport`, the bundle's download). Not an audited
 * record: no history and no events, and its GraphQL type is a view of it
 * (src/domain/access/api/tenant-exports.ts) with what it derives (the download's URL).
 */
@Entity({ tableName: 'tenant_export' })
@Index(
  partialIndex('tenant_export', 'tenant_export_due_idx', ['created'], `"status" in ('PENDING', 'RUNNING')`),
)
export class TenantExport {
  [OptionalProps]?: 'id' | 'status' | 'progress' | 'created' | 'attempts';

  @PrimaryKey({ type: 'uuid' })
  tenantId!: string;

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Enum({ items: ['PENDING', 'RUNNING', 'DONE', 'FAILED'], default: 'PENDING' })
  status: TenantExportStatus = 'PENDING';

  /** How far the run has come, 0 to 100. */
  @Property({ type: 'int', default: 0 })
  progress: number = 0;

  @Property({ type: 'text', nullable: true })
  message?: string | null;

  /** Where the run wrote the bundle, relative to its machine's DATA_DIR. */
  @Property({ type: 'text', nullable: true })
  bundle?: string | null;

  /** The e-mail address of who asked for it. */
  @Property({ type: 'text' })
  requestedBy!: string;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  created: Date = new Date();

  @Property({ type: 'timestamptz', nullable: true })
  started?: Date | null;

  @Property({ type: 'timestamptz', nullable: true })
  completed?: Date | null;

  /** Until when the running worker holds it; a lapsed lease lets another worker take it over. */
  @Property({ type: 'timestamptz', nullable: true })
  leaseUntil?: Date | null;

  /** Runs so far: each of a run's writes names it, so a run taken over can no longer write. */
  @Property({ type: 'int', default: 0 })
  attempts: number = 0;

  /** The archive in the file store, with its size and SHA-256 (hex). */
  @Property({ type: 'text', nullable: true })
  archiveKey?: string | null;

  @Property({ type: 'bigint', runtimeType: 'number', nullable: true })
  archiveSize?: number | null;

  @Property({ type: 'text', nullable: true })
  archiveSha256?: string | null;
}
