import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * An invoice whose PDF is still to be made (src/domain/finance/invoice-pdf-queue.ts): written in
 * the transaction that stores the invoice, claimed by a process's PDF worker, removed once the PDF
 * is stored. `claim` and `due` are a worker's lease: a row claimed by a worker that died is taken
 * again once `due` passes. Not a record of the API: no GraphQL type, no history, no events. Its
 * statements are the queue's (src/domain/finance/invoice-pdf-repository.ts); the invoice it names
 * is one of the same tenant (a foreign key of the migration, as docs/integrity.md says).
 */
@Entity({ tableName: 'invoice_pdf_due' })
@Index({ name: 'invoice_pdf_due_due_idx', properties: ['due'] })
export class InvoicePdfDue {
  @PrimaryKey({ type: 'uuid' })
  tenantId!: string;

  @PrimaryKey({ type: 'uuid' })
  invoiceId!: string;

  /** When a worker may take it: now for a new row, the end of the lease or of the wait for a retry. */
  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  due!: Date;

  /** Tries so far, counted when a worker claims it. */
  @Property({ type: 'int', default: 0 })
  attempts!: number;

  /** The claim of the worker holding it, if any. */
  @Property({ type: 'uuid', nullable: true })
  claim?: string | null;
}
