/**
 * Migrations whose file was renamed after deployments had applied them, by the name they were
 * applied under. A database records each applied migration by name, so before migrating, a name
 * here that is recorded gets its new name recorded beside it (src/db/orm.ts `migrate`): the
 * migration is not run again, and a process of the build before, which still knows the old name
 * (a rolling deploy, a rollback), finds it too. Renames only ever add lines here.
 */
export const RENAMED_MIGRATIONS: Readonly<Record<string, string>> = {
  // The initial migration's class was named after a timestamp its file did not carry.
  Migration20261122000000: 'Migration20261122000000_initial',
  // Two migrations shared one timestamp, so sorting the files could swap them.
  Migration20261123100000_integrity: 'Migration20261123095959_integrity',
};
