import type { DerivedSql } from '../../family/fields';
import { ApInvoiceStatus, ApPaymentStatus } from './entities/ap-invoice';

/**
 * An AP invoice's daysOverdue and isOverdue as SQL (the group's `derived`), counted as
 * aging.daysOverdue counts them: whole UTC calendar days past the due date, 0 without
 * one, when cancelled or paid, and before it.
 */
export const daysOverdueSql: DerivedSql = (a) =>
  `case when ${a}.due_date is null or ${a}.status = '${ApInvoiceStatus.CANCELLED}' or ${a}.payment_status = '${ApPaymentStatus.PAID}' then 0 ` +
  `else greatest(0, (now() at time zone 'UTC')::date - (${a}.due_date at time zone 'UTC')::date) end`;

export const isOverdueSql: DerivedSql = (a, ctx) => `(${daysOverdueSql(a, ctx)}) > 0`;
