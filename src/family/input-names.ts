import { Matches } from 'class-validator';
import { getMetadataStorage } from 'type-graphql';
import { withoutBidiControls } from './display-text';

export const MUST_NOT_BE_BLANK = 'must not be blank';

const NOT_BLANK = /\S/;
/** The input classes with a text field `name`. */
const named = new WeakSet<Function>();

/**
 * A name is what a record is known by in lists, pickers and logs. Every input field `name`
 * taking text is held to two rules here, once, rather than by a decorator on each input, so an
 * input written later has them too:
 * - it must say something: class-validator's Matches(/\S/) refuses one of spaces alone, which
 *   passed every `Length(1, …)` (an empty one was already refused where the input says so);
 * - it is stored without bidirectional controls (cleanNames).
 * Applied before the schema is built, so the arguments' validation (validateArgument) and the
 * OpenAPI document's `pattern` both have it.
 */
export function checkInputNames(): void {
  const storage = getMetadataStorage();
  const inputs = new Set<Function>(storage.inputTypes.map((input) => input.target));
  for (const field of storage.fields) {
    if (field.name !== 'name' || !inputs.has(field.target) || named.has(field.target)) continue;
    if (field.getType() !== String) continue;
    named.add(field.target);
    Matches(NOT_BLANK, { message: MUST_NOT_BE_BLANK })(field.target.prototype, 'name');
  }
}

/**
 * Drops bidirectional controls from the `name` of an input, before it is validated (a name of
 * controls alone is then blank): they reorder what a reader sees (`invoice\u202egnp.exe` shows
 * as `invoiceexe.png`).
 */
export function cleanNames(value: object): void {
  let type = value.constructor;
  while (type && type !== Object && !named.has(type)) type = Object.getPrototypeOf(type);
  if (!type || type === Object) return;
  const input = value as { name?: unknown };
  if (typeof input.name === 'string') input.name = withoutBidiControls(input.name);
}
