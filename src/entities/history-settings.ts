import { Check, Entity, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * A tenant's history settings: how many days its history (and the deleted records the audit log
 * keeps) is kept (history/retention.ts). No row until the tenant changes the default.
 */
@Entity({ tableName: 'history_settings' })
@Check({
  name: 'history_settings_retention_days_check',
  expression: '"retention_days" >= 1 and "retention_days" <= 36500',
})
export class HistorySettings {
  @PrimaryKey({ type: 'uuid' })
  tenantId!: string;

  /** From 1 to 36500 (the check above; history/retention.ts refuses others first). */
  @Property({ type: 'int' })
  retentionDays!: number;
}
