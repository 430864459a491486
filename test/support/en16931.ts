import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';

/**
 * The official EN 16931 validation artefacts (CEN/TC 434's schematron, as the XSLT it publishes,
 * EUPL 1.2: test/fixtures/en16931/LICENSE.txt) run by SaxonJS, the XSLT 3.0 processor from the npm
 * registry. SaxonJS runs compiled stylesheets (SEF); xslt3 compiles one, which takes a quarter of a
 * minute of CPU, so each stylesheet's compiled form is kept beside it, gzipped and named by the
 * stylesheet's content (`<stylesheet>.<hash>.sef.json.gz`), and unpacked into the machine's
 * temporary directory: a fresh clone (CI) compiles nothing. A stylesheet with no compiled form of
 * its content (one replaced by a newer version) is compiled on first use on the machine. To keep a
 * new one: `node node_modules/xslt3/xslt3.js -xsl:<stylesheet> -export:<file> -nogo -relocate:on`
 * from a copy in a neutral folder (the form records the stylesheet's path), then `gzip -9 -n`.
 */
const FIXTURES = path.join(__dirname, '..', 'fixtures', 'en16931');
const STYLESHEETS = { UBL: 'EN16931-UBL-validation.xslt', CII: 'EN16931-CII-validation.xslt' } as const;
export type Syntax = keyof typeof STYLESHEETS;

/** One rule the document breaks: its id (BR-CO-17...), its flag (fatal, warning) and its text. */
export interface RuleFailure {
  id: string;
  flag: string;
  text: string;
}

/** The compiled stylesheet of a syntax: unpacked from its kept form, or compiled on first use. */
export function compiledStylesheet(syntax: Syntax): string {
  const source = path.join(FIXTURES, STYLESHEETS[syntax]);
  const hash = createHash('sha256').update(fs.readFileSync(source)).digest('hex').slice(0, 16);
  const sef = path.join(os.tmpdir(), `bms-en16931-${syntax.toLowerCase()}-${hash}.sef.json`);
  if (fs.existsSync(sef)) return sef;
  const partial = `${sef}.${process.pid}.tmp`;
  const kept = `${source.replace(/\.xslt$/, '')}.${hash}.sef.json.gz`;
  if (fs.existsSync(kept)) fs.writeFileSync(partial, zlib.gunzipSync(fs.readFileSync(kept)));
  else
    execFileSync(
      process.execPath,
      [require.resolve('xslt3/xslt3.js'), `-xsl:${source}`, `-export:${partial}`, '-nogo', '-relocate:on'],
      { stdio: 'pipe' },
    );
  // Renamed into place whole, so a parallel test file never reads half a stylesheet.
  fs.renameSync(partial, sef);
  return sef;
}

/** The EN 16931 rules an e-invoice breaks (none for a valid one), with the schematron's own ids. */
export async function en16931Failures(xml: string, syntax: Syntax): Promise<RuleFailure[]> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const SaxonJS = require('saxon-js') as {
    transform(options: object, mode: 'async'): Promise<{ principalResult: string }>;
  };
  const { principalResult: svrl } = await SaxonJS.transform(
    { stylesheetFileName: compiledStylesheet(syntax), sourceText: xml, destination: 'serialized' },
    'async',
  );
  const failures: RuleFailure[] = [];
  for (const m of svrl.matchAll(/<svrl:failed-assert\b([^>]*)>([\s\S]*?)<\/svrl:failed-assert>/g)) {
    const attr = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(m[1])?.[1] ?? '';
    const text = /<svrl:text>([\s\S]*?)<\/svrl:text>/.exec(m[2])?.[1]?.trim() ?? '';
    failures.push({ id: attr('id'), flag: attr('flag'), text });
  }
  return failures;
}
