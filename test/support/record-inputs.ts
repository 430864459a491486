import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  type GraphQLInputType,
} from 'graphql';
import { sampleValue } from './sample-requests';

type Row = Record<string, unknown>;

/**
 * An input with every scalar it can hold varied by `i`; links to other records are left out.
 * `full` fills the optional scalars too, `lists` also one element of each optional list of
 * objects (an invoice's rows), so their paths have values to find.
 */
export type Known = { ids: Map<string, string[]>; username: string };
export type Fill = 'lists' | 'full' | 'required';

/** The id of a record made earlier for a link named `name` (productId: a Product's). */
function linkTo(name: string, known: Known, i: number): string | undefined {
  const target = name.replace(/Ids?$/, '').toLowerCase();
  for (const [group, ids] of known.ids)
    if (group.toLowerCase().endsWith(target) && ids.length) return ids[i % ids.length];
  return undefined;
}

function input(type: GraphQLInputType, i: number, name: string, fill: Fill, known: Known): unknown {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) return [input(inner.ofType, i, name, fill, known)];
  const named = getNamedType(inner);
  if (isEnumType(named)) {
    const values = named.getValues();
    return values[i % values.length].value;
  }
  if (isInputObjectType(named)) {
    const out: Row = {};
    for (const f of Object.values(named.getFields())) {
      const required = isNonNullType(f.type);
      const list = isListType(isNonNullType(f.type) ? f.type.ofType : f.type);
      const objects = isInputObjectType(getNamedType(f.type));
      if (!required && fill === 'required') continue;
      if (!required && /Ids?$/.test(f.name) && !linkTo(f.name, known, i)) continue;
      if (!required && list && !(objects && fill === 'lists')) continue;
      if (!required && objects && !list) continue;
      out[f.name] = /Ids?$/.test(f.name)
        ? (linkTo(f.name, known, i) ?? sampleValue(f.type, f.name))
        : input(f.type, i, f.name, objects && fill === 'lists' ? 'full' : fill, known);
    }
    return out;
  }
  switch (named.name) {
    case 'Int':
      return i + 1;
    case 'Float':
      return i + 1.5;
    case 'Boolean':
      return i % 2 === 0;
    case 'DateTimeISO':
    case 'DateTime':
      return `2026-11-2${i}T10:15:00.000Z`;
    case 'LocalDate':
    case 'Date':
      return `2026-11-2${i}`;
    default:
      if (/^username$/i.test(name)) return known.username;
      if (/email|recipient/i.test(name)) return `person${i}@example.test`;
      if (/currency/i.test(name)) return 'EUR';
      if (/color/i.test(name)) return `#00000${i}`;
      if (/timezone/i.test(name)) return 'Europe/Amsterdam';
      if (/url|website/i.test(name)) return `https://example.test/${i}`;
      if (name === 'country') return ['NL', 'BE', 'DE', 'FR', 'LU'][i % 5];
      if (/vatNumber$/i.test(name)) return `NL00000000${i}B0${i}`;
      return `${name}-${String.fromCharCode(97 + i)}${i}`;
  }
}

/** `recordInput`'s value of a create's `input` argument of type `type`. */
export const recordInput = (type: GraphQLInputType, i: number, fill: Fill, known: Known): unknown =>
  input(type, i, 'input', fill, known);
