import type { StockInventory } from '../../src/domain/inventory/entities/stock-inventory';
import { StockStatus } from '../../src/domain/inventory/entities/stock-inventory';
import type { StockBatch } from '../../src/domain/inventory/entities/stock-batch';
import { TransferStatus, type StockTransfer } from '../../src/domain/inventory/entities/stock-transfer';
import { perProduct, round4, sumOf, unitRates } from '../../src/domain/inventory/quantities';
import { reorderQuantity } from '../../src/domain/inventory/reorder';
import { fefo, isExpired, recomputeDerived } from '../../src/domain/inventory/stock-ledger';
import { productStatusOf } from '../../src/domain/inventory/transfer-progress';
import { applyTransferInput, checkSites, transferNumber } from '../../src/domain/inventory/transfer-rules';

/**
 * The inventory's rules on their own: quantities to four decimals, stock status, reordering, the
 * order batches are taken in, and what a transfer's lines add up to; no server, no database.
 */

const transfer = (fields: Partial<StockTransfer>): StockTransfer =>
  ({
    status: TransferStatus.DRAFT,
    products: [],
    cancelledProducts: { isNotEmpty: false, products: [] },
    deliveredProducts: [],
    returnedProducts: [],
    batchAllocations: [],
    reservedProducts: [],
    ...fields,
  }) as unknown as StockTransfer;

describe('quantities', () => {
  it('sums to four decimals, without the drift of binary fractions', () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(sumOf([{ quantity: 0.1 }, { quantity: 0.2 }])).toBe(0.3);
    expect(sumOf([{ quantity: null }, {}, { quantity: 2.00005 }])).toBe(2.0001);
    expect(round4(-1.23456)).toBe(-1.2346);
    expect([
      ...perProduct([
        { productId: 'a', quantity: 1.1 },
        { productId: 'b', quantity: 2 },
        { productId: 'a', quantity: 2.2 },
        { productId: null, quantity: 9 },
      ]),
    ]).toEqual([
      ['a', 3.3],
      ['b', 2],
    ]);
  });

  it('base units per unit: a box of 12, and 1 for a line without quantity', () => {
    const rates = unitRates([
      { productId: 'box', quantity: 2, baseUnitQuantity: 24 },
      { productId: 'each', quantity: 5 },
      { productId: 'none', quantity: 0, baseUnitQuantity: 0 },
    ]);
    expect(Object.fromEntries(rates)).toEqual({ box: 12, each: 1, none: 1 });
  });
});

describe('stock status and reordering', () => {
  const inventory = (fields: Partial<StockInventory>) =>
    ({
      productId: 'p',
      siteId: 's',
      totalQuantity: 10,
      reservations: [],
      inTransitStock: [],
      minimum: 3,
      ...fields,
    }) as unknown as StockInventory;

  it('available is total less reserved; LOW_STOCK at the minimum, OUT_OF_STOCK at zero', () => {
    const inv = inventory({ reservations: [{ quantity: 6.5 }, { quantity: 0.5 }] as never });
    recomputeDerived(inv);
    expect(inv.reservedQuantity).toBe(7);
    expect(inv.availableQuantity).toBe(3);
    expect(inv.status).toBe(StockStatus.LOW_STOCK);
    const empty = inventory({ reservations: [{ quantity: 10 }] as never });
    recomputeDerived(empty);
    expect(empty.status).toBe(StockStatus.OUT_OF_STOCK);
    const plenty = inventory({ minimum: null });
    recomputeDerived(plenty);
    expect(plenty.status).toBe(StockStatus.IN_STOCK);
    expect(() => recomputeDerived(inventory({ reservations: [{ quantity: 10.0001 }] as never }))).toThrow(
      /10.0001 reserved but only 10 in stock/,
    );
  });

  it('reorders up to the maximum counting what is on its way; nothing above the minimum', () => {
    const stocked = (available: number, inTransit: number, minimum: number | null, maximum: number | null) =>
      ({ availableQuantity: available, inTransitQuantity: inTransit, minimum, maximum }) as never;
    expect(reorderQuantity(stocked(2, 0, 5, 20))).toBe(18);
    expect(reorderQuantity(stocked(5, 0, 5, 20))).toBe(15);
    expect(reorderQuantity(stocked(5.0001, 0, 5, 20))).toBeNull();
    expect(reorderQuantity(stocked(2, 5, 5, 20))).toBe(13);
    expect(reorderQuantity(stocked(2, 3, 5, null))).toBeNull();
    expect(reorderQuantity(stocked(0.3, 0, 1, null))).toBe(0.7);
    expect(reorderQuantity(stocked(0, 0, null, 10))).toBeNull();
  });

  it('batches: first expiring first, then oldest stock, undated last; expired at the exact moment', () => {
    const batch = (id: string, expirationDate?: string, lastStockDate?: string) =>
      ({
        id,
        expirationDate: expirationDate ? new Date(expirationDate) : null,
        lastStockDate: lastStockDate ? new Date(lastStockDate) : null,
      }) as StockBatch;
    const batches = [
      batch('undated'),
      batch('later', '2027-03-01T00:00:00Z'),
      batch('sooner-newer', '2027-02-01T00:00:00Z', '2026-12-01T00:00:00Z'),
      batch('sooner-older', '2027-02-01T00:00:00Z', '2026-11-01T00:00:00Z'),
    ];
    expect(batches.sort(fefo).map((b) => b.id)).toEqual(['sooner-older', 'sooner-newer', 'later', 'undated']);
    const expiry = { expirationDate: '2027-02-01T00:00:00Z' };
    expect(isExpired(expiry, new Date('2027-01-31T23:59:59.999Z'))).toBe(false);
    expect(isExpired(expiry, new Date('2027-02-01T00:00:00Z'))).toBe(true);
    expect(isExpired({ expirationDate: null }, new Date('2100-01-01T00:00:00Z'))).toBe(false);
  });
});

describe('stock transfers', () => {
  it('lines get base quantities and prices; the numbers are six digits, more when needed', () => {
    const t = transfer({});
    applyTransferInput(t, {
      products: [{ productId: 'box', quantity: 3, baseUnitConversion: 12, pricePerUnit: 10 }],
    } as never);
    expect(t.products[0]).toMatchObject({ baseUnitQuantity: 36, pricePerBaseUnit: 0.8333, totalPrice: 30 });
    expect(transferNumber(42)).toBe('ST-000042');
    expect(transferNumber(1234567)).toBe('ST-1234567');
  });

  it('refuses cancelling more than ordered, delivering more than is left, returning more than delivered', () => {
    const ordered = [{ productId: 'p', quantity: 5 }];
    expect(() =>
      applyTransferInput(
        transfer({
          cancelledProducts: { isNotEmpty: true, products: [{ productId: 'p', quantity: 6 }] } as never,
        }),
        { products: ordered } as never,
      ),
    ).toThrow(/cancelledProducts: 6 of product p is more than the 5 ordered/);
    expect(() =>
      applyTransferInput(
        transfer({
          cancelledProducts: { isNotEmpty: true, products: [{ productId: 'p', quantity: 2 }] } as never,
        }),
        { products: ordered, deliveredProducts: [{ productId: 'p', quantity: 3.0001 }] } as never,
      ),
    ).toThrow(/deliveredProducts: 3.0001 of product p is more than the 3 ordered and not cancelled/);
    expect(() =>
      applyTransferInput(transfer({}), {
        products: ordered,
        deliveredProducts: [{ productId: 'p', quantity: 2 }],
        returnedProducts: [{ productId: 'p', quantity: 3 }],
      } as never),
    ).toThrow(/returnedProducts: 3 of product p is more than the 2 delivered/);
    expect(() => checkSites(transfer({ stockSiteId: 's1', destinationStockSiteId: 's1' }))).toThrow(
      /must differ/,
    );
  });

  it('fully cancelled when every product is, or the transfer is CANCELLED', () => {
    const both = [
      { productId: 'a', quantity: 2 },
      { productId: 'b', quantity: 1 },
    ];
    const part = transfer({
      cancelledProducts: { isNotEmpty: true, products: [{ productId: 'a', quantity: 2 }] } as never,
    });
    applyTransferInput(part, { products: both } as never);
    expect(part.isFullyCancelled).toBe(false);
    expect(part.cancelledProducts.isNotEmpty).toBe(true);
    const all = transfer({
      cancelledProducts: {
        isNotEmpty: true,
        products: [
          { productId: 'a', quantity: 2 },
          { productId: 'b', quantity: 1 },
        ],
      } as never,
    });
    applyTransferInput(all, { products: both } as never);
    expect(all.isFullyCancelled).toBe(true);
    const cancelled = transfer({ status: TransferStatus.CANCELLED });
    applyTransferInput(cancelled, { products: both } as never);
    expect(cancelled.isFullyCancelled).toBe(true);
  });

  it('progress of a product: picked in base units shown in line units, pending and cancellable', () => {
    const t = transfer({
      status: TransferStatus.SHIPPED,
      products: [{ productId: 'box', quantity: 4, baseUnitQuantity: 48, pricePerUnit: 5 }] as never,
      cancelledProducts: { isNotEmpty: true, products: [{ productId: 'box', quantity: 1 }] } as never,
      deliveredProducts: [{ productId: 'box', quantity: 1 }] as never,
      batchAllocations: [{ productId: 'box', quantity: 24 }] as never,
    });
    expect(productStatusOf(t)[0]).toMatchObject({
      productId: 'box',
      quantityOrdered: 4,
      quantityCancelled: 1,
      quantityDelivered: 1,
      quantityPicked: 2,
      quantityShipped: 2,
      quantityPending: 2,
      quantityCanBeCancelled: 1,
      finishedQuantity: 2,
    });
  });
});
