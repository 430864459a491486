import {
  countryCode,
  isReverseCharge,
  partyCountry,
  vatBreakdown,
  vatNumberCountry,
} from '../../src/domain/finance/vat-rules';

describe('VAT rules of an EU invoice', () => {
  const dutchCompany = { vatNumber: 'NL123456789B01', country: 'NL' };
  const germanCompany = { vatNumber: 'DE123456789', country: 'DE' };

  it('reverse-charges B2B sales between two EU member states', () => {
    expect(isReverseCharge(dutchCompany, germanCompany)).toBe(true);
    expect(isReverseCharge(germanCompany, dutchCompany)).toBe(true);
  });

  it('charges VAT within one country, to a private buyer, or outside the EU', () => {
    expect(isReverseCharge(dutchCompany, { vatNumber: 'NL987654321B01', country: 'NL' })).toBe(false);
    expect(isReverseCharge(dutchCompany, { vatNumber: null, country: 'DE' })).toBe(false);
    expect(isReverseCharge(dutchCompany, { vatNumber: '  ', country: 'DE' })).toBe(false);
    expect(isReverseCharge({ vatNumber: null, country: 'NL' }, germanCompany)).toBe(false);
    // Switzerland and Norway are not member states: export rules apply, not the EU reverse charge.
    expect(isReverseCharge(dutchCompany, { vatNumber: 'CHE123456789', country: 'CH' })).toBe(false);
    expect(isReverseCharge({ vatNumber: 'NO123456789MVA', country: 'NO' }, germanCompany)).toBe(false);
  });

  it('takes the country from the VAT number when the party states none', () => {
    expect(isReverseCharge({ vatNumber: 'NL123456789B01' }, { vatNumber: 'BE0123456789' })).toBe(true);
    expect(isReverseCharge({ vatNumber: 'NL123456789B01', country: 'Netherlands' }, germanCompany)).toBe(
      true,
    );
    // Greece's VAT prefix is EL; its ISO code is GR.
    expect(vatNumberCountry('EL123456789')).toBe('GR');
    expect(partyCountry({ vatNumber: 'EL123456789' })).toBe('GR');
    expect(isReverseCharge({ vatNumber: 'EL123456789', country: 'GR' }, { vatNumber: 'EL987654321' })).toBe(
      false,
    );
  });

  it('reads only two-letter codes as countries', () => {
    expect(countryCode(' nl ')).toBe('NL');
    expect(countryCode('Netherlands')).toBeNull();
    expect(countryCode(null)).toBeNull();
    expect(isReverseCharge({ vatNumber: '123', country: 'Holland' }, germanCompany)).toBe(false);
  });

  it('breaks the tax down per rate, as sums of the rounded rows, leaving text rows out', () => {
    const rows = [
      { type: 'ITEM', taxRate: 21, total: 100, taxAmount: 21 },
      { type: 'ITEM', taxRate: 9, total: 33.33, taxAmount: 3 },
      { type: 'ITEM', taxRate: 21, total: 0.1, taxAmount: 0.02 },
      { type: 'DISCOUNT', taxRate: 21, total: -10, taxAmount: -2.1 },
      { type: 'TEXT', taxRate: null, total: 0, taxAmount: 0 },
    ];
    expect(vatBreakdown(rows)).toEqual([
      { rate: 21, taxable: 90.1, tax: 18.92 },
      { rate: 9, taxable: 33.33, tax: 3 },
    ]);
    expect(vatBreakdown([])).toEqual([]);
  });
});
