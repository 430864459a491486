import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * A tenant's history settings: how many days its history (and the deleted records the audit log
 * keeps) is kept (history/retention.ts). No row until the tenant changes the default.
 */
@Entity({ tableName: 'history_settings' })
export class HistorySettings {
  @PrimaryKey({ type: 'uuid' })
  tenantId!: string;

  /** From 1 to 36500 (the table checks it). */
  @Property({ type: 'int' })
  retentionDays!: number;
}
