// The registry this project installs from here serves the Linux builds of native packages only,
// so `npm install` leaves the other platforms' optional builds out of package-lock.json while
// keeping the edges to them, and `npm ci` then refuses the lock. This drops those dangling
// optional edges. Run it after changing dependencies: `npm install && node scripts/prune-lockfile.mjs`.
import fs from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
let removed = 0;
for (const [key, entry] of Object.entries(lock.packages)) {
  if (!entry.optionalDependencies) continue;
  const nested = key ? `${key}/node_modules/` : 'node_modules/';
  for (const name of Object.keys(entry.optionalDependencies)) {
    if (!lock.packages[nested + name] && !lock.packages[`node_modules/${name}`]) {
      delete entry.optionalDependencies[name];
      removed++;
    }
  }
  if (Object.keys(entry.optionalDependencies).length === 0) delete entry.optionalDependencies;
}
fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: dropped ${removed} optional edges to packages the registry does not serve`);
