import { Migration } from '@mikro-orm/migrations';

/**
 * What a delete of the referenced record does to the referencing one:
 * - cascade: the row belongs to its parent (batches of an inventory, a user's notifications, a
 *   type's coverages) and goes with it;
 * - restrict: the delete is refused (409) while rows refer to the record: subsidiaries and HR
 *   projects, because they are data scopes and a cleared scope would make the row visible to
 *   everyone; products and stock sites that hold stock or waste; the client or supplier of an
 *   invoice, which bookkeeping must keep;
 * - set null: an optional link (an owner, a customer, a lead...) is cleared, which is what reads
 *   already showed for a link to a deleted record (the related object was null).
 */
type Rule = 'cascade' | 'restrict' | 'set null';

/** [table, column, referenced table, rule]: every reference between records of one tenant. */
const references: readonly [string, string, string, Rule][] = [
  ['activity', 'customer_id', 'customer', 'set null'],
  ['activity', 'opportunity_id', 'opportunity', 'set null'],
  ['activity', 'owner_id', 'app_user', 'set null'],
  ['ap_invoice', 'subsidiary_id', 'subsidiary', 'restrict'],
  ['ap_invoice', 'supplier_id', 'supplier', 'restrict'],
  ['booking', 'widget_config_id', 'contact_form_widget_config', 'set null'],
  ['booking', 'lead_id', 'lead', 'set null'],
  ['booking', 'activity_id', 'activity', 'set null'],
  ['booking', 'assigned_employee_id', 'employee', 'set null'],
  ['booking', 'assigned_subsidiary_id', 'subsidiary', 'set null'],
  ['contact_form_widget_config', 'assigned_team_lead_id', 'employee', 'set null'],
  ['employee', 'user_id', 'app_user', 'set null'],
  ['epic', 'project_id', 'hr_project', 'restrict'],
  ['feature', 'epic_id', 'epic', 'set null'],
  ['invoice', 'client_id', 'customer', 'restrict'],
  ['invoice', 'opportunity_id', 'opportunity', 'set null'],
  ['invoice', 'subsidiary_id', 'subsidiary', 'restrict'],
  ['lead', 'customer_id', 'customer', 'set null'],
  ['lead', 'opportunity_id', 'opportunity', 'set null'],
  ['lead', 'owner_id', 'app_user', 'set null'],
  ['lead', 'subsidiary_id', 'subsidiary', 'restrict'],
  ['notification', 'user_id', 'app_user', 'cascade'],
  ['notification_settings', 'user_id', 'app_user', 'cascade'],
  ['opportunity', 'customer_id', 'customer', 'set null'],
  ['push_token', 'user_id', 'app_user', 'cascade'],
  ['stock_batch', 'inventory_id', 'stock_inventory', 'cascade'],
  ['stock_batch', 'site_id', 'stock_site', 'restrict'],
  ['stock_batch', 'product_id', 'product', 'restrict'],
  ['stock_inventory', 'product_id', 'product', 'restrict'],
  ['stock_inventory', 'site_id', 'stock_site', 'restrict'],
  ['stock_inventory', 'subsidiary_id', 'subsidiary', 'restrict'],
  ['stock_site', 'subsidiary_id', 'subsidiary', 'restrict'],
  ['stock_transfer', 'stock_site_id', 'stock_site', 'restrict'],
  ['stock_transfer', 'destination_stock_site_id', 'stock_site', 'restrict'],
  ['stock_transfer', 'subsidiary_id', 'subsidiary', 'restrict'],
  ['stock_transfer', 'incoming_stock_transfer_id', 'stock_transfer', 'set null'],
  ['task', 'feature_id', 'feature', 'set null'],
  ['task', 'epic_id', 'epic', 'set null'],
  ['task', 'project_id', 'hr_project', 'restrict'],
  ['type_product_coverage', 'type_id', 'configurator_type', 'cascade'],
  ['type_product_coverage', 'linked_product_id', 'product', 'set null'],
  ['waste_record', 'product_id', 'product', 'restrict'],
  ['waste_record', 'stock_site_id', 'stock_site', 'restrict'],
  ['waste_record', 'subsidiary_id', 'subsidiary', 'restrict'],
];

/**
 * Composite foreign keys `(tenant_id, x_id) references x (tenant_id, id)`, so no row can name a
 * record of another tenant, whatever code wrote it.
 *
 * On a live database with rows written before these keys, each key is added NOT VALID (new and
 * changed rows are checked from then on), then the orphans left by earlier deletes are treated
 * the way the rule would have treated them: a set-null link is cleared (reads showed it as null
 * already), a cascade child whose parent is gone is deleted. A restrict key is validated only when
 * it has no orphans; otherwise it stays NOT VALID, a notice names it, and an operator decides
 * (the row may need its scope or product put right by hand) before running VALIDATE CONSTRAINT.
 * Restrict orphans are never cleared here: clearing a subsidiary or project would widen who sees
 * the row.
 */
export class Migration20261123095959_integrity extends Migration {
  override async up(): Promise<void> {
    // Row-level security is forced on the owner too: the orphan search must see every tenant's
    // rows. bms_enable_rls() forces it again at the end (and after every migration).
    const tables = [...new Set(references.flatMap(([table, , target]) => [table, target]))];
    for (const table of tables) this.addSql(`alter table "${table}" no force row level security;`);
    for (const [table, column, target, rule] of references) {
      const name = `${table}_${column}_tenant_fk`;
      const onDelete = rule === 'set null' ? `set null ("${column}")` : rule;
      this.addSql(
        `alter table "${table}" add constraint "${name}" foreign key ("tenant_id", "${column}") ` +
          `references "${target}" ("tenant_id", "id") on delete ${onDelete} not valid;`,
      );
      const orphan =
        `"${column}" is not null and not exists (select 1 from "${target}" p ` +
        `where p.tenant_id = "${table}".tenant_id and p.id = "${table}"."${column}")`;
      if (rule === 'set null') this.addSql(`update "${table}" set "${column}" = null where ${orphan};`);
      if (rule === 'cascade') this.addSql(`delete from "${table}" where ${orphan};`);
      this.addSql(`do $$ begin
        if exists (select 1 from "${table}" where ${orphan}) then
          raise notice 'foreign key % left NOT VALID: rows refer to missing records', '${name}';
        else
          alter table "${table}" validate constraint "${name}";
        end if;
      end $$;`);
    }
    // Deleting a referenced record looks up the rows that name it: every key column leads an
    // index after tenant_id; these three did not yet.
    this.addSql(`create index "employee_tenant_user_id_idx" on "employee" ("tenant_id", "user_id");`);
    this.addSql(`create index "stock_batch_tenant_product_id_idx" on "stock_batch" ("tenant_id", "product_id");`);
    this.addSql(
      `create index "stock_transfer_tenant_incoming_stock_transfer_id_idx" on "stock_transfer" ("tenant_id", "incoming_stock_transfer_id");`,
    );
    this.addSql(`select bms_enable_rls();`);
  }

  override async down(): Promise<void> {
    for (const index of [
      'employee_tenant_user_id_idx',
      'stock_batch_tenant_product_id_idx',
      'stock_transfer_tenant_incoming_stock_transfer_id_idx',
    ])
      this.addSql(`drop index if exists "${index}";`);
    for (const [table, column] of references) {
      this.addSql(`alter table "${table}" drop constraint if exists "${table}_${column}_tenant_fk";`);
    }
  }
}
