import { decimalOf, lineAmounts, settlement, toCents } from '../../src/domain/finance/money';

describe('invoice money arithmetic', () => {
  it('reads numbers and numeric text exactly, exponents included', () => {
    expect(decimalOf(1.005)).toEqual({ units: 1005n, scale: 3 });
    expect(decimalOf('-0.50')).toEqual({ units: -50n, scale: 2 });
    expect(decimalOf(1e-7)).toEqual({ units: 1n, scale: 7 });
    expect(decimalOf(1.5e21)).toEqual({ units: 1500000000000000000000n, scale: 0 });
    expect(() => decimalOf('1,5')).toThrow('is not a number');
    expect(() => decimalOf(Number.NaN)).toThrow();
  });

  it('rounds to cents half away from zero', () => {
    expect(toCents(decimalOf('0.005'))).toBe(1n);
    expect(toCents(decimalOf('-0.005'))).toBe(-1n);
    expect(toCents(decimalOf('0.00499'))).toBe(0n);
    expect(toCents(decimalOf('-2.675'))).toBe(-268n);
    expect(toCents(decimalOf('12'))).toBe(1200n);
  });

  it('computes a line: total, tax on the rounded total, forced direction, percentage', () => {
    expect(lineAmounts({ quantity: 3, unitPrice: 0.335, taxRate: 21 }, 'r')).toEqual({
      total: 101n,
      taxAmount: 21n,
      totalWithTax: 122n,
    });
    expect(lineAmounts({ quantity: 2, unitPrice: 5, taxRate: 10, direction: -1 }, 'r').totalWithTax).toBe(
      -1100n,
    );
    expect(lineAmounts({ quantity: 12.5, unitPrice: 80, taxRate: 0, percentage: true }, 'r').total).toBe(
      1000n,
    );
    expect(() => lineAmounts({ quantity: 1e12, unitPrice: 1e3, taxRate: 0 }, 'rows[4]')).toThrow(
      'rows[4].total',
    );
  });

  it('tells how far payments settle a total, credit notes included', () => {
    expect(settlement(0n, 100n)).toBe('NONE');
    expect(settlement(50n, 100n)).toBe('PARTIAL');
    expect(settlement(100n, 100n)).toBe('FULL');
    expect(settlement(150n, 100n)).toBe('FULL');
    expect(settlement(-100n, -100n)).toBe('FULL');
    expect(settlement(-40n, -100n)).toBe('PARTIAL');
    expect(settlement(40n, -100n)).toBe('PARTIAL');
    expect(settlement(5n, 0n)).toBe('FULL');
  });
});
