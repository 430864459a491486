import { Entity, Index, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import { partialIndex } from '../../../entities/index-repository';

/** A raster image's thumbnail: none wanted, being made, made, or the image could not be read. */
export type ThumbnailState = 'NONE' | 'PENDING' | 'DONE' | 'FAILED';

/**
 * One file a tenant uploaded (or the service made), keyed by tenant and id under row-level
 * security. `completed` is null while a two-step upload waits for its completion call: such a
 * row names no file anyone can read; `deleted` marks a file removed, whose bytes and row go when
 * the clean-up job runs. Not a record of the family: it has no history, and its events
 * (`file.created`, `file.deleted`) are written by the store (file-events.ts), not by the flush.
 */
@Entity({ tableName: 'stored_file' })
@Index(partialIndex('stored_file', 'stored_file_tenant_live_idx', ['tenant_id'], '"deleted" is null'))
@Index(
  partialIndex('stored_file', 'stored_file_thumbnail_due_idx', ['created'], `"thumbnail_state" = 'PENDING'`),
)
export class StoredFile {
  @PrimaryKey({ type: 'uuid' })
  tenantId!: string;

  @PrimaryKey({ type: 'uuid' })
  id!: string;

  /** The name shown and offered on download, never a path (cleanName). */
  @Property({ type: 'text' })
  name!: string;

  /** The media type its content was recognised as. */
  @Property({ type: 'text' })
  type!: string;

  /** Bytes; a pending upload's is the size it declared. */
  @Property({ type: 'bigint', runtimeType: 'number' })
  size!: number;

  @Property({ type: 'text', nullable: true })
  sha256: string | null = null;

  @Property({ type: 'int', nullable: true })
  width: number | null = null;

  @Property({ type: 'int', nullable: true })
  height: number | null = null;

  /** The id its thumbnail is (or will be) stored under, answered at upload as `thumbnailBlobId`. */
  @Property({ type: 'uuid', nullable: true })
  thumbnailId: string | null = null;

  @Property({ type: 'text', default: 'NONE' })
  thumbnailState: Opt<ThumbnailState> = 'NONE';

  /** Where the backend keeps its bytes (`<tenant>/<id>`, storageKeyOf). */
  @Property({ type: 'text' })
  storageKey!: string;

  @Property({ type: 'uuid', nullable: true })
  createdBy: string | null = null;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  created: Opt<Date> = new Date();

  @Property({ type: 'timestamptz', nullable: true })
  completed: Date | null = null;

  /** A pending upload's ticket runs out then. */
  @Property({ type: 'timestamptz', nullable: true })
  expires: Date | null = null;

  @Property({ type: 'timestamptz', nullable: true })
  deleted: Date | null = null;
}
