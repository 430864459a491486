export const DAY = 24 * 60 * 60 * 1000;

/**
 * Midday UTC of the calendar day `days` after today (negative: before): a date that keeps its
 * meaning whenever the suite runs, where a written date would pass one day and turn the test.
 */
export function dayFromToday(days: number): string {
  const now = new Date();
  return new Date(
    Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 12) + days * DAY,
  ).toISOString();
}
