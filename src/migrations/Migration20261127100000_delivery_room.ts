import { Migration } from '@mikro-orm/migrations';

/**
 * Room on each page of `event_delivery` for a row's next version: a claim changes only the lease
 * columns (no indexed column, nor one an index's predicate names), so with room on its page it is
 * a HOT update and writes no index entry; without, each claim left one more entry in every index,
 * `event_delivery_window_idx` among them, for the claims to step over until vacuum
 * (bench/README.md, "Events: claiming and draining"). Applies to pages written from now on.
 */
export class Migration20261127100000_delivery_room extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "event_delivery" set (fillfactor = 50);`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "event_delivery" reset (fillfactor);`);
  }
}
