import { existsSync } from 'node:fs';

/**
 * `describe` for tests that drive a program from Debian's packages (chromium, pdftotext): where it
 * is absent the block is skipped with a warning saying what to install, so `npm test` passes on a
 * newcomer's machine; in CI (which installs them, .ci/run) its absence fails the run instead.
 */
export function describeWithTool(executable: string, debianPackage: string, what: string): jest.Describe {
  const present = existsSync(executable);
  if (!present && process.env.CI) {
    throw new Error(
      `${executable} is missing in CI: .ci/run installs Debian's ${debianPackage} package before the tests`,
    );
  }
  if (!present) {
    console.warn(`${what} skipped: ${executable} is absent (apt-get install ${debianPackage} to run it)`);
    return describe.skip;
  }
  return describe;
}
