/**
 * The names of a test run's databases on the PostgreSQL server at DATABASE_URL. Kept apart from
 * database.ts, which loads the ORM: global-setup.ts runs in jest's own realm, where MikroORM's
 * metadata would leak into the test sandboxes (a run in band shares that realm).
 */
export const TEMPLATE_SUFFIX = 'template';

/** The name of a database of this run on the PostgreSQL server at DATABASE_URL. */
export function runDatabaseUrl(suffix: string): { name: string; url: string } {
  const name = `${process.env.TEST_DATABASE_PREFIX}_${suffix}`;
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}

/** How many embedded database hosts the run starts: one per jest worker (jest.config.js). */
export const embeddedHosts = (): number => Number(process.env.TEST_EMBEDDED_HOSTS) || 1;
