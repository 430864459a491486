import { DateTimeISOResolver as LibraryDateTimeISO } from 'graphql-scalars';
import { DateTimeISOResolver } from '../../src/schema/date-time';

/** The service's DateTimeISO answers what graphql-scalars' answers, only without re-validating its own dates. */
describe('DateTimeISO', () => {
  const same = (value: unknown) => {
    const theirs = (() => {
      try {
        return LibraryDateTimeISO.serialize(value);
      } catch (err) {
        return `error: ${(err as Error).message}`;
      }
    })();
    const ours = (() => {
      try {
        return DateTimeISOResolver.serialize(value);
      } catch (err) {
        return `error: ${(err as Error).message}`;
      }
    })();
    expect(ours).toEqual(theirs);
  };

  it('serialises dates, ISO strings, other strings, numbers and bad values as graphql-scalars does', () => {
    for (const value of [
      new Date('2026-11-23T09:00:00.000Z'),
      new Date(0),
      new Date(Number.NaN),
      '2026-11-23T09:00:00.000Z',
      '2026-11-23T09:00:00Z',
      '2026-11-23T10:00:00.123+01:00',
      '2026-11-23',
      'not a date',
      '',
      1_700_000_000_000,
      null,
      { date: 1 },
    ])
      same(value);
  });

  it('keeps the library scalar’s name, description and input parsing', () => {
    expect(DateTimeISOResolver.name).toBe(LibraryDateTimeISO.name);
    expect(DateTimeISOResolver.description).toBe(LibraryDateTimeISO.description);
    expect(DateTimeISOResolver.parseValue('2026-11-23T09:00:00Z')).toEqual(
      LibraryDateTimeISO.parseValue('2026-11-23T09:00:00Z'),
    );
    expect(() => DateTimeISOResolver.parseValue('yesterday')).toThrow();
  });
});
