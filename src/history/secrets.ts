/**
 * Fields that must never leave the record they belong to: not into its history, the audit log,
 * nor anything served from them. Declared here once; history/diff.ts is the only reader. A field
 * whose name says it holds a secret (`secret`, `hash`, `token`, `password`) is left out of every
 * entity's history as well, so a secret added later without a line here still stays out.
 */
export const SECRET_FIELDS: Readonly<Record<string, readonly string[]>> = {
  WebhookEndpoint: ['secret', 'previousSecret'],
  ApiKey: ['secretHash'],
  Booking: ['cancellationToken'],
  PushToken: ['token'],
};

const SECRET_NAME = /secret|hash|token|password/i;

export function isSecretField(entityName: string, field: string): boolean {
  return SECRET_NAME.test(field) || (SECRET_FIELDS[entityName]?.includes(field) ?? false);
}
