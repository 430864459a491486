import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { localSettings } from './file-suite';
import { fileStoreCases } from './store-cases';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bms-files-local-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Files under the folder, the `.incoming` ones included: a half upload would show up here. */
function objectCount(): Promise<number> {
  const files = fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  return Promise.resolve(files.length);
}

describe('stored files on the local backend', () => {
  fileStoreCases(() => localSettings(dir), objectCount);
});
