#!/usr/bin/env node
import 'reflect-metadata';
import { failureOf, runCommand } from './commands';

/** Writes the text and exits once it is out (stdout may be a pipe, written asynchronously). */
function exit(stream: NodeJS.WriteStream, text: string, code: number): void {
  stream.write(`${text}\n`, () => process.exit(code));
}

runCommand(process.argv.slice(2)).then(
  (out) => exit(process.stdout, out, 0),
  (err) => {
    const { code, line } = failureOf(err);
    exit(process.stderr, line, code);
  },
);
