import type { Context } from '../../context';
import { FileAsset, ImageRef } from '../../entities/shared';
import { problems, type Problem } from '../../errors';
import { assetOf, findFiles, imageOf } from './stored-files';

interface Named {
  field: string;
  value: FileAsset | ImageRef;
}

/** Shapes nest no deeper than this in any record (a type's variables hold assets two levels down). */
const MAX_DEPTH = 8;

function collect(value: unknown, field: string, depth: number, out: Named[]): void {
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return;
  if (value instanceof FileAsset || value instanceof ImageRef) {
    out.push({ field, value });
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) => collect(item, `${field}[${i}]`, depth + 1, out));
    return;
  }
  if (value instanceof Date) return;
  for (const [key, item] of Object.entries(value))
    collect(item, field ? `${field}.${key}` : key, depth + 1, out);
}

/**
 * Every stored file a write names, checked in one statement and filled in from the store: each
 * `FileAsset` and `ImageRef` of `input` (however deep) must name, by `blobId`, a file of the
 * caller's tenant, or the write is a 404 naming each field at fault. Size, type, name,
 * extension, creation time, dimensions and thumbnail are then the stored file's, whatever the
 * request said. Inputs are type-graphql's instances of the shared shapes, so any group, present
 * or future, that holds one is checked without saying so.
 */
export async function checkFileRefs(ctx: Context, input: unknown): Promise<void> {
  const named: Named[] = [];
  collect(input, '', 0, named);
  if (!named.length) return;
  const missingId = named.filter((n) => !n.value.blobId);
  if (missingId.length)
    throw problems(
      400,
      missingId.map((n) => ({ field: `${n.field}.blobId`, reason: 'a stored file is named by its blobId' })),
    );
  const files = await findFiles(
    ctx.em,
    ctx.caller!.tenantId,
    named.map((n) => n.value.blobId!),
  );
  const byId = new Map(files.map((f) => [f.id, f]));
  const wrong: Problem[] = [];
  for (const { field, value } of named) {
    const file = byId.get(value.blobId!.toLowerCase());
    if (!file) {
      wrong.push({ field: `${field}.blobId`, reason: `there is no file ${value.blobId}` });
      continue;
    }
    if (value instanceof ImageRef) {
      if (!file.type.startsWith('image/')) {
        wrong.push({ field: `${field}.blobId`, reason: `the file ${value.blobId} is not an image` });
        continue;
      }
      Object.assign(value, imageOf(file));
    } else Object.assign(value, assetOf(file));
  }
  if (wrong.length) throw problems(404, wrong);
}
