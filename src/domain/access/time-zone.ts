import { badRequest } from '../../errors';

/**
 * A time zone as people and PostgreSQL name it (IANA, "Europe/Helsinki"). Node's ICU decides, so a
 * name is refused when it is written, not when a digest or a booking reads it later.
 */
export function checkTimeZone(field: string, timeZone: string | null | undefined): void {
  if (!timeZone) return;
  try {
    new Intl.DateTimeFormat('en', { timeZone });
  } catch {
    throw badRequest(`${field}: "${timeZone}" is not an IANA time zone`);
  }
}
