import { IsDefined, ValidateIf } from 'class-validator';
import { badRequest } from '../../errors';

/**
 * Rules the HR inputs and groups share. Update inputs leave absent fields as they are; a field
 * the record cannot do without (a name, a status) may be left out but not set to null.
 */
export function NotNullWhenGiven(): PropertyDecorator {
  return (target, key) => {
    ValidateIf((_o, value) => value !== undefined)(target, key as string);
    IsDefined({ message: `${String(key)} must not be null` })(target, key as string);
  };
}

/**
 * A create that sends null for a field with a default gets the default, as if it had left the
 * field out; null lists become empty, so every documented list is [] rather than null.
 */
export function fillDefaults<T extends object>(entity: T, defaults: Partial<T>): void {
  for (const [key, value] of Object.entries(defaults)) {
    const record = entity as Record<string, unknown>;
    if (record[key] === null || record[key] === undefined) record[key] = value;
  }
}

/** A period whose end comes before its start is a mistake in the request. */
export function checkPeriod(
  start: string | null | undefined,
  end: string | null | undefined,
  names: [string, string],
) {
  if (start && end && end < start) throw badRequest(`${names[1]} (${end}) is before ${names[0]} (${start})`);
}
