import { Migration } from '@mikro-orm/migrations';

/**
 * Until when an endpoint counts as slow (`slow_until`): a worker that saw it answer late (or not
 * yet) sets it, so that every process leaves that endpoint's lag out of the bound on a tenant's
 * writes (src/events/lag-bound.ts). Null, or past: not slow.
 */
export class Migration20261128100000_webhook_slow extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "webhook_endpoint" add column "slow_until" timestamptz null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "webhook_endpoint" drop column "slow_until";`);
  }
}
