import type { Context } from '../context';

/**
 * What a module adds to every record the family writes: each hook sees the fields a create, an
 * update or a restore is about to store, before the group's own `beforeSave` or `beforeRestore`,
 * and may refuse them (by throwing) or complete them in place. The family knows no module; the
 * composition hands it the modules' hooks (src/app-modules.ts), so what a module checks on every
 * write (stored files named by a record, say) reaches the kernel without the kernel importing it.
 */
export type WriteHook = (ctx: Context, data: unknown, write: WriteKind) => Promise<void>;

/** Which write a hook sees: the entity's name, and whether the record is new (a create). */
export interface WriteKind {
  entity: string;
  isNew: boolean;
}

let installed: readonly WriteHook[] = [];

/** The hooks every family write runs, in order; replaces any installed before. */
export function useWriteHooks(hooks: readonly WriteHook[]): void {
  installed = [...hooks];
}

/** Runs the installed hooks on the fields about to be written. */
export async function runWriteHooks(ctx: Context, data: unknown, write: WriteKind): Promise<void> {
  for (const hook of installed) await hook(ctx, data, write);
}
