import type { EntityMetadata, EntityProperty } from '@mikro-orm/core';

/** The standard fields of every record, which every group may filter and sort by. */
export const AUDIT_FIELDS = ['id', 'created', 'createdBy', 'updated', 'updatedBy'] as const;

/** `ContactFormWidget` -> `contactFormWidget`: GraphQL field names from type names. */
export const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

/** What a filter, a sort or a search can do with a field depends on its kind. */
export type FieldKind =
  'string' | 'uuid' | 'number' | 'integer' | 'boolean' | 'datetime' | 'date' | 'enum' | 'list';

export interface FieldInfo {
  name: string;
  kind: FieldKind;
  enumValues?: string[];
}

export function kindOf(prop: EntityProperty): FieldKind {
  if (prop.enum) return 'enum';
  const column = (prop.columnTypes?.[0] ?? String(prop.type)).toLowerCase();
  if (column.endsWith('[]')) return 'list';
  if (column === 'uuid') return 'uuid';
  if (column.startsWith('timestamp')) return 'datetime';
  if (column === 'date') return 'date';
  if (column === 'boolean') return 'boolean';
  if (/^(int|integer|smallint|bigint)/.test(column)) return 'integer';
  if (/^(numeric|decimal|double|real|float)/.test(column)) return 'number';
  return 'string';
}

/** The fields of `meta` named in `names`, with their kinds; an unknown name is a programming error. */
export function fieldInfos(meta: EntityMetadata, names: readonly string[]): Map<string, FieldInfo> {
  const infos = new Map<string, FieldInfo>();
  for (const name of names) {
    const prop = meta.properties[name as keyof typeof meta.properties] as EntityProperty | undefined;
    if (!prop) throw new Error(`${meta.className} has no property "${name}" to search, filter or sort by`);
    const kind = kindOf(prop);
    infos.set(name, { name, kind, enumValues: kind === 'enum' ? (prop.items as string[]) : undefined });
  }
  return infos;
}
