import { Migration } from '@mikro-orm/migrations';

/**
 * What a lawful invoice and an e-invoice need to say about the buyer: a customer's postal address,
 * country (ISO 3166 alpha-2) and VAT number; and the invoice a credit note corrects.
 */
export class Migration20261129230000_customer_address extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "customer" add column "street" text null, add column "postal_code" text null, add column "city" text null, add column "country" text null, add column "vat_number" text null;`,
    );
    this.addSql(`alter table "invoice" add column "credited_invoice_id" uuid null;`);
    // The corrected invoice is one of the same tenant; a credit note outlives its deletion.
    this.addSql(
      `alter table "invoice" add constraint "invoice_credited_invoice_id_tenant_fk" foreign key ("tenant_id", "credited_invoice_id") references "invoice" ("tenant_id", "id") on delete set null ("credited_invoice_id");`,
    );
    this.addSql(
      `create index "invoice_tenant_credited_invoice_id_idx" on "invoice" ("tenant_id", "credited_invoice_id");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "invoice_tenant_credited_invoice_id_idx";`);
    this.addSql(`alter table "invoice" drop column "credited_invoice_id";`);
    this.addSql(
      `alter table "customer" drop column "street", drop column "postal_code", drop column "city", drop column "country", drop column "vat_number";`,
    );
  }
}
