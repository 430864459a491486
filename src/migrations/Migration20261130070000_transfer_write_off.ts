import { Migration } from '@mikro-orm/migrations';

/**
 * Writing off what a shipped transfer still has in transit (src/domain/inventory/transfer-write-off.ts):
 * the write-off is kept on the transfer (what, why, when, by whom) and closes it, a status of its own.
 */
export class Migration20261130070000_transfer_write_off extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "stock_transfer" add column "written_off" jsonb null;`);
    this.addSql(`alter table "stock_transfer" drop constraint if exists "stock_transfer_status_check";`);
    this.addSql(
      `alter table "stock_transfer" add constraint "stock_transfer_status_check" check("status" in ('DRAFT', 'REQUESTED', 'APPROVED', 'PICKING', 'SHIPPED', 'PARTIALLY_DELIVERED', 'DELIVERED', 'CANCELLED', 'CLOSED'));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "stock_transfer" drop constraint if exists "stock_transfer_status_check";`);
    this.addSql(`alter table "stock_transfer" drop column "written_off";`);
    this.addSql(
      `alter table "stock_transfer" add constraint "stock_transfer_status_check" check("status" in ('DRAFT', 'REQUESTED', 'APPROVED', 'PICKING', 'SHIPPED', 'PARTIALLY_DELIVERED', 'DELIVERED', 'CANCELLED'));`,
    );
  }
}
