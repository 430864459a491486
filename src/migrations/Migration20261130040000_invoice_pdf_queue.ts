import { Migration } from '@mikro-orm/migrations';

/**
 * The invoices whose PDF is still to be made (src/domain/finance/invoice-pdf-queue.ts): a row is
 * written in the transaction that stores the invoice, so the work survives a crash between the
 * commit and the rendering, and the rendering runs outside the invoice number's lock. `claim` and
 * `due` are a worker's lease: a row claimed by a worker that died is taken again once `due` passes.
 */
export class Migration20261130040000_invoice_pdf_queue extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "invoice_pdf_due" ("tenant_id" uuid not null, "invoice_id" uuid not null, "due" timestamptz not null default now(), "attempts" int not null default 0, "claim" uuid null, constraint "invoice_pdf_due_pkey" primary key ("tenant_id", "invoice_id"));`,
    );
    // The invoice is one of the same tenant; its pending PDF goes with it. Checked at commit: a
    // new invoice's row is written before the invoice, ahead of the number's lock, so the lock is
    // not held for one more round trip.
    this.addSql(
      `alter table "invoice_pdf_due" add constraint "invoice_pdf_due_invoice_id_tenant_fk" foreign key ("tenant_id", "invoice_id") references "invoice" ("tenant_id", "id") on delete cascade deferrable initially deferred;`,
    );
    this.addSql(`create index "invoice_pdf_due_due_idx" on "invoice_pdf_due" ("due");`);
    this.addSql(`select bms_enable_rls();`);
    // The PDF worker finds due rows of every tenant, as the file jobs do, then renders as each
    // invoice's tenant; the application role can never use this policy.
    this.addSql(
      `create policy invoice_pdf_due_worker on invoice_pdf_due using (current_user <> 'bms_app' and current_setting('app.worker', true) = 'invoice-pdfs');`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "invoice_pdf_due" cascade;`);
  }
}
