import { AppError } from '../../src/errors';
import { bucketOf, daysOverdue } from '../../src/domain/finance/aging';
import { addMonths, daysPastDue } from '../../src/domain/finance/common';
import {
  ApInvoiceStatus,
  ApPaymentStatus,
  type ApInvoice,
} from '../../src/domain/finance/entities/ap-invoice';
import { InvoiceRowType, InvoiceStatus, InvoiceType } from '../../src/domain/finance/entities/invoice';
import { computeRows, formatInvoiceNumber } from '../../src/domain/finance/invoice-rules';
import { dayIn, daysPastDueIn, isPastDue, settledStatus } from '../../src/domain/finance/invoice-status';
import {
  cents,
  checkRange,
  decimalOf,
  lineAmounts,
  paidCents,
  settlement,
  toCents,
} from '../../src/domain/finance/money';
import { nextDate } from '../../src/domain/finance/recurring-invoices';
import {
  isReverseCharge,
  partyCountry,
  vatBreakdown,
  vatNumberCountry,
} from '../../src/domain/finance/vat-rules';

/**
 * The finance rules on their own: money, invoice states, VAT and dates, imported and called with
 * no server and no database, so each edge case is cheap to state.
 */

const utc = (iso: string) => new Date(`${iso}Z`);

describe('money: exact cents', () => {
  it('rounds half away from zero where doubles would not (1.005, -1.005, 2.675)', () => {
    expect(cents(1.005)).toBe(101n);
    expect(cents(-1.005)).toBe(-101n);
    expect(cents('2.675')).toBe(268n);
    expect(cents(1.004)).toBe(100n);
    expect(cents(null)).toBe(0n);
    expect(toCents(decimalOf('1e-3'))).toBe(0n);
    expect(toCents(decimalOf('1.5e2'))).toBe(15000n);
  });

  it('refuses what is not a number, and amounts beyond the column, with a 400', () => {
    expect(() => decimalOf('12,50')).toThrow(AppError);
    expect(() => decimalOf(Number.NaN)).toThrow(/is not a number/);
    expect(() => decimalOf('.')).toThrow(/is not a number/);
    expect(checkRange(10n ** 14n - 1n, 'total')).toBe(10n ** 14n - 1n);
    expect(() => checkRange(10n ** 14n, 'total')).toThrow(/total is too large/);
    expect(() => checkRange(-(10n ** 14n), 'total')).toThrow(/total is too large/);
  });

  it('a line rounds its net and its tax once each; a percentage line and a forced sign', () => {
    // 3 x 0.335 = 1.005 -> 1.01; 21% of 1.01 = 0.2121 -> 0.21.
    expect(lineAmounts({ quantity: 3, unitPrice: 0.335, taxRate: 21 }, 'rows[0]')).toEqual({
      total: 101n,
      taxAmount: 21n,
      totalWithTax: 122n,
    });
    // A 30% deposit of 999.99: 299.997 -> 300.00.
    expect(lineAmounts({ quantity: 30, unitPrice: 999.99, taxRate: 0, percentage: true }, 'r').total).toBe(
      30000n,
    );
    // A discount is negative whatever sign it was sent with.
    expect(lineAmounts({ quantity: 1, unitPrice: 10, taxRate: 9, direction: -1 }, 'r')).toEqual({
      total: -1000n,
      taxAmount: -90n,
      totalWithTax: -1090n,
    });
    expect(() => lineAmounts({ quantity: 1e6, unitPrice: 1e9, taxRate: 0 }, 'rows[2]')).toThrow(
      /rows\[2\]\.total is too large/,
    );
  });

  it('settlement: partial, full, overpaid, a zero total, a credit note refunded', () => {
    expect(settlement(0n, 1000n)).toBe('NONE');
    expect(settlement(999n, 1000n)).toBe('PARTIAL');
    expect(settlement(1000n, 1000n)).toBe('FULL');
    expect(settlement(1500n, 1000n)).toBe('FULL');
    expect(settlement(1n, 0n)).toBe('FULL');
    expect(settlement(-500n, -1000n)).toBe('PARTIAL');
    expect(settlement(-1000n, -1000n)).toBe('FULL');
    // A payment in the wrong direction settles nothing of a credit note.
    expect(settlement(1000n, -1000n)).toBe('PARTIAL');
    expect(paidCents([{ amount: 0.1 }, { amount: 0.2 }], 'paid')).toBe(30n);
  });
});

describe('invoice status from payments and the due date', () => {
  it('partial payments keep an invoice past due OVERDUE; paying in full makes it PAID', () => {
    expect(settledStatus(InvoiceStatus.SENT, 500n, 1000n, false)).toBe(InvoiceStatus.PARTIALLY_PAID);
    expect(settledStatus(InvoiceStatus.SENT, 500n, 1000n, true)).toBe(InvoiceStatus.OVERDUE);
    expect(settledStatus(InvoiceStatus.OVERDUE, 999n, 1000n, false)).toBe(InvoiceStatus.OVERDUE);
    expect(settledStatus(InvoiceStatus.OVERDUE, 1000n, 1000n, true)).toBe(InvoiceStatus.PAID);
  });

  it('CANCELLED is final, a DRAFT or a credit note is never OVERDUE, refunds return to SENT', () => {
    expect(settledStatus(InvoiceStatus.CANCELLED, 1000n, 1000n, true)).toBe(InvoiceStatus.CANCELLED);
    expect(settledStatus(InvoiceStatus.DRAFT, 0n, 1000n, true)).toBe(InvoiceStatus.DRAFT);
    expect(settledStatus(InvoiceStatus.SENT, 0n, -1000n, true)).toBe(InvoiceStatus.SENT);
    expect(settledStatus(InvoiceStatus.PAID, 0n, 1000n, false)).toBe(InvoiceStatus.SENT);
    expect(settledStatus(InvoiceStatus.PARTIALLY_PAID, 0n, 1000n, false)).toBe(InvoiceStatus.SENT);
  });

  it("days past due count the tenant's calendar days, not 24-hour spans", () => {
    const due = utc('2026-03-10T22:30:00');
    // 22:30 UTC is 23:30 in Amsterdam (still the 10th); an hour later it is the 11th there.
    expect(dayIn(due, 'Europe/Amsterdam')).toBe('2026-03-10');
    expect(dayIn(utc('2026-03-10T23:30:00'), 'Europe/Amsterdam')).toBe('2026-03-11');
    expect(dayIn(utc('2026-03-10T03:00:00'), 'America/New_York')).toBe('2026-03-09');
    expect(daysPastDueIn(due, utc('2026-03-10T23:59:00'), 'UTC')).toBe(0);
    expect(daysPastDueIn(due, utc('2026-03-11T00:00:00'), 'UTC')).toBe(1);
    // Across the spring change of clocks (29 March in Europe) days are still whole.
    expect(daysPastDueIn(utc('2026-03-28T12:00:00'), utc('2026-03-30T12:00:00'), 'Europe/Amsterdam')).toBe(2);
    // Noon to 16:00 UTC on the 10th: the same day in UTC, the 10th to the 11th in Tokyo.
    const noon = utc('2026-03-10T12:00:00');
    expect(isPastDue(noon, utc('2026-03-10T16:00:00'), 'UTC')).toBe(false);
    expect(isPastDue(noon, utc('2026-03-10T16:00:00'), 'Asia/Tokyo')).toBe(true);
    expect(isPastDue(null, utc('2030-01-01T00:00:00'), 'UTC')).toBe(false);
    expect(daysPastDue(utc('2026-02-28T23:00:00'), utc('2026-03-01T01:00:00'))).toBe(1);
  });

  it('ageing buckets; a paid or cancelled AP invoice is not overdue', () => {
    expect([0, 1, 30, 31, 60, 61, 90, 91, -5].map(bucketOf)).toEqual([
      'current',
      '1-30',
      '1-30',
      '31-60',
      '31-60',
      '61-90',
      '61-90',
      '90+',
      'current',
    ]);
    const now = utc('2026-05-01T10:00:00');
    const ap = (fields: Partial<ApInvoice>) =>
      ({ dueDate: utc('2026-04-01T00:00:00'), ...fields }) as ApInvoice;
    expect(daysOverdue(ap({}), now)).toBe(30);
    expect(daysOverdue(ap({ status: ApInvoiceStatus.CANCELLED }), now)).toBe(0);
    expect(daysOverdue(ap({ paymentStatus: ApPaymentStatus.PAID }), now)).toBe(0);
    expect(daysOverdue(ap({ dueDate: utc('2026-06-01T00:00:00') }), now)).toBe(0);
  });
});

describe('recurring periods', () => {
  it('month ends: the 31st plus a month is the last day of the next month, leap years counted', () => {
    expect(addMonths(utc('2026-01-31T09:00:00'), 1).toISOString()).toBe('2026-02-28T09:00:00.000Z');
    expect(addMonths(utc('2028-01-31T09:00:00'), 1).toISOString()).toBe('2028-02-29T09:00:00.000Z');
    expect(addMonths(utc('2026-03-31T00:00:00'), -1).toISOString()).toBe('2026-02-28T00:00:00.000Z');
    expect(addMonths(utc('2026-11-30T00:00:00'), 3).toISOString()).toBe('2027-02-28T00:00:00.000Z');
    expect(addMonths(utc('2026-12-15T00:00:00'), 1).toISOString()).toBe('2027-01-15T00:00:00.000Z');
  });

  it("an agreement's next date: months, then days", () => {
    const from = utc('2026-01-31T00:00:00');
    expect(nextDate(from, { intervalMonths: 1, intervalDays: 1 } as never).toISOString()).toBe(
      '2026-03-01T00:00:00.000Z',
    );
    expect(nextDate(from, { intervalDays: 14 } as never).toISOString()).toBe('2026-02-14T00:00:00.000Z');
    expect(nextDate(from, { intervalMonths: 12 } as never).toISOString()).toBe('2027-01-31T00:00:00.000Z');
  });
});

describe('VAT: reverse charge across countries, and the breakdown', () => {
  const nl = { vatNumber: 'NL123456789B01', country: 'NL' };
  it('only business to business between two EU member states', () => {
    expect(isReverseCharge(nl, { vatNumber: 'DE123456789', country: 'DE' })).toBe(true);
    // Greece's VAT numbers say EL; its country code is GR.
    expect(vatNumberCountry('EL 123456789')).toBe('GR');
    expect(isReverseCharge(nl, { vatNumber: 'EL123456789' })).toBe(true);
    expect(isReverseCharge(nl, { vatNumber: 'NL999999999B01', country: 'nl' })).toBe(false);
    expect(isReverseCharge(nl, { vatNumber: null, country: 'DE' })).toBe(false);
    expect(isReverseCharge(nl, { vatNumber: '   ', country: 'DE' })).toBe(false);
    // Outside the EU (Switzerland, the United Kingdom since 2021) is no intra-EU supply.
    expect(isReverseCharge(nl, { vatNumber: 'CHE123456789', country: 'CH' })).toBe(false);
    expect(isReverseCharge(nl, { vatNumber: 'GB123456789', country: 'GB' })).toBe(false);
    // A stated country wins over the number's prefix; a free-text country is unknown.
    expect(partyCountry({ vatNumber: 'DE123', country: 'be' })).toBe('BE');
    expect(partyCountry({ vatNumber: 'DE123', country: 'Germany' })).toBe('DE');
    expect(
      isReverseCharge({ vatNumber: '123', country: 'Netherlands' }, { vatNumber: '456', country: 'DE' }),
    ).toBe(false);
  });

  it('a reverse-charged invoice charges no VAT on any row; text rows carry nothing', () => {
    const rows = [
      { description: 'Work', quantity: 2, unitPrice: 50, taxRate: 21 },
      { description: 'Note', type: InvoiceRowType.TEXT, quantity: 5, unitPrice: 9 },
      { description: 'Loyal', type: InvoiceRowType.DISCOUNT, quantity: 1, unitPrice: 10, taxRate: 21 },
    ];
    const normal = computeRows(rows as never, InvoiceType.MANUAL);
    expect(normal.totals).toEqual({ total: 9000n, taxAmount: 1890n, totalWithTax: 10890n });
    expect(normal.rows[1]).toMatchObject({ total: 0, taxAmount: 0, totalWithTax: 0 });
    const reverse = computeRows(rows as never, InvoiceType.MANUAL, undefined, true);
    expect(reverse.totals).toEqual({ total: 9000n, taxAmount: 0n, totalWithTax: 9000n });
    expect(reverse.rows.map((r) => r.taxRate)).toEqual([0, null, 0]);
    // A credit note mirrors: items negative, a discount positive.
    const credit = computeRows(rows as never, InvoiceType.CREDIT_NOTE);
    expect(credit.totals.total).toBe(-9000n);
    // A row naming no rate takes the tenant's default.
    expect(
      computeRows([{ quantity: 1, unitPrice: 100 }] as never, InvoiceType.MANUAL, 9).totals.taxAmount,
    ).toBe(900n);
  });

  it('the breakdown sums rounded rows per rate, highest rate first, text rows left out', () => {
    expect(
      vatBreakdown([
        { taxRate: 9, total: 10.01, taxAmount: 0.9 },
        { taxRate: 21, total: 0.1, taxAmount: 0.02 },
        { taxRate: 21, total: 0.2, taxAmount: 0.04 },
        { type: 'TEXT', taxRate: 21, total: 0, taxAmount: 0 },
      ]),
    ).toEqual([
      { rate: 21, taxable: 0.3, tax: 0.06 },
      { rate: 9, taxable: 10.01, tax: 0.9 },
    ]);
    expect(formatInvoiceNumber(2026, 7)).toBe('2026-00007');
  });
});
