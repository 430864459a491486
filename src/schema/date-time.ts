import { GraphQLScalarType } from 'graphql';
import { DateTimeISOResolver as LibraryDateTimeISO } from 'graphql-scalars';

/** What `Date.prototype.toISOString` writes for years 0000-9999: `2026-11-23T09:00:00.000Z`. */
function isCanonical(value: string): boolean {
  return (
    value.length === 24 &&
    value.charCodeAt(4) === 45 && // -
    value.charCodeAt(7) === 45 &&
    value.charCodeAt(10) === 84 && // T
    value.charCodeAt(13) === 58 && // :
    value.charCodeAt(16) === 58 &&
    value.charCodeAt(19) === 46 && // .
    value.charCodeAt(23) === 90 // Z
  );
}

/**
 * graphql-scalars' `DateTimeISO` (same name, description, input parsing and validation) with a
 * cheaper output: a Date becomes its ISO string without first being re-validated, and a string
 * already in `toISOString`'s form, which is how the service stores dates inside JSON columns
 * (events, files), is answered as it is instead of being validated, parsed and formatted again.
 * Anything else takes the library's way, errors included. A page of 200 features serialises
 * about 1,600 dates.
 */
export const DateTimeISOResolver = new GraphQLScalarType({
  ...LibraryDateTimeISO.toConfig(),
  serialize(value: unknown) {
    if (value instanceof Date && !Number.isNaN(value.getTime())) return value.toISOString();
    if (typeof value === 'string' && isCanonical(value)) return value;
    return LibraryDateTimeISO.serialize(value);
  },
});
