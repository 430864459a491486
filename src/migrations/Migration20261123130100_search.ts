import { Migration } from '@mikro-orm/migrations';

/** Every field of a lead is searchable; the link to the user who qualified it gets its index. */
export class Migration20261123130100_search extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "lead_tenant_qualified_by_idx" on "lead" ("tenant_id", "qualified_by");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "lead_tenant_qualified_by_idx";`);
  }
}
