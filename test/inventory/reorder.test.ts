import { reorderQuantity } from '../../src/domain/inventory/reorder';

/** The reorder rule, without a database. */
describe('reorderQuantity', () => {
  const inv = (
    availableQuantity: number,
    minimum: number | null,
    maximum: number | null,
    inTransitQuantity = 0,
  ) => ({
    availableQuantity,
    inTransitQuantity,
    minimum,
    maximum,
  });

  it('orders up to the maximum once at or below the minimum', () => {
    expect(reorderQuantity(inv(4, 5, 20))).toBe(16);
    expect(reorderQuantity(inv(5, 5, 20))).toBe(15);
    expect(reorderQuantity(inv(0, 5, 20))).toBe(20);
  });

  it('nothing above the minimum, without a minimum, or when enough is on its way', () => {
    expect(reorderQuantity(inv(6, 5, 20))).toBeNull();
    expect(reorderQuantity(inv(0, null, 20))).toBeNull();
    expect(reorderQuantity(inv(2, 5, 20, 18))).toBeNull();
  });

  it('counts stock in transit, and orders up to the minimum when there is no maximum', () => {
    expect(reorderQuantity(inv(2, 5, 20, 8))).toBe(10);
    expect(reorderQuantity(inv(1, 5, null))).toBe(4);
  });
});
