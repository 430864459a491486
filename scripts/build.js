/* eslint-disable @typescript-eslint/no-require-imports */
'use strict';
/**
 * The build (tsc with tsconfig.build.json, incremental) and whether it is needed. A build records
 * a digest of its inputs (every file under src/, the tsconfig files, mikro-orm.config.ts) in
 * dist/.build-inputs; a start whose inputs have that digest and whose dist/src/main.js exists
 * does not build. The digest reads the files' contents, not their times, so a checkout or a touch
 * that changes nothing builds nothing and a change of any kind is never missed; it costs far less
 * than tsc with nothing to do (bench/README.md, "Start-up").
 *
 * `node scripts/build.js` builds; `--if-changed` builds only when the inputs changed. Exit code:
 * tsc's.
 */
const { spawn } = require('node:child_process');
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const STAMP = path.join(ROOT, 'dist', '.build-inputs');
const MAIN = path.join(ROOT, 'dist', 'src', 'main.js');
const CLI = path.join(ROOT, 'dist', 'src', 'cli', 'main.js');
const INPUTS = ['tsconfig.json', 'tsconfig.build.json', 'mikro-orm.config.ts'];

function filesUnder(dir, out = []) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) filesUnder(file, out);
    else out.push(file);
  }
  return out;
}

/** The digest of what a build reads, with each file's path relative to the repository. */
function inputsDigest() {
  const hash = createHash('sha256');
  const files = [...INPUTS.map((f) => path.join(ROOT, f)), ...filesUnder(path.join(ROOT, 'src')).sort()];
  for (const file of files) {
    hash.update(`${path.relative(ROOT, file)}\0`);
    hash.update(fs.existsSync(file) ? fs.readFileSync(file) : '(none)');
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** Whether dist/ was built from the sources as they are now (and the digest it was compared with). */
function upToDate() {
  const digest = inputsDigest();
  const recorded = fs.existsSync(STAMP) ? fs.readFileSync(STAMP, 'utf8').trim() : '';
  return { fresh: recorded === digest && fs.existsSync(MAIN), digest };
}

/**
 * Runs tsc; resolves with its exit code (or the signal's name) and records the digest when it
 * succeeds. `onChild` gets the tsc process, so a stop can be passed on to it.
 */
function build(digest = inputsDigest(), onChild = () => undefined) {
  const tsc = require.resolve('typescript/bin/tsc', { paths: [ROOT] });
  const child = spawn(process.execPath, [tsc, '-p', path.join(ROOT, 'tsconfig.build.json')], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  onChild(child);
  return new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      if (code === 0) {
        fs.chmodSync(CLI, 0o755);
        fs.writeFileSync(STAMP, `${digest}\n`);
      }
      resolve(code ?? signal);
    });
  });
}

module.exports = { build, upToDate };

if (require.main === module) {
  const { fresh, digest } = upToDate();
  if (process.argv.includes('--if-changed') && fresh) process.exit(0);
  build(digest).then((code) => process.exit(typeof code === 'number' ? code : 1));
}
