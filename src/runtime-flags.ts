/**
 * Node flags the service should run with where its Node takes them.
 *
 * `--experimental-async-context-frame`: Node 22 builds AsyncLocalStorage on promise hooks unless
 * started with it, and the first storage entered turns those hooks on for every promise the
 * process makes from then on. MikroORM enters one in every flush; with the flag that costs
 * nothing, as on Node 24, which refuses the flag (it is its default; Node 20 has neither).
 * bench/README.md, "On Node 22", gives what it measured.
 */
export const RECOMMENDED_NODE_FLAGS = ['--experimental-async-context-frame'] as const;

interface Runtime {
  /** Flags this Node takes (`process.allowedNodeEnvironmentFlags`). */
  allowed: ReadonlySet<string>;
  /** Flags it was started with (`process.execArgv`) and `NODE_OPTIONS`. */
  execArgv: readonly string[];
  nodeOptions: string | undefined;
}

const current = (): Runtime => ({
  allowed: process.allowedNodeEnvironmentFlags,
  execArgv: process.execArgv,
  nodeOptions: process.env.NODE_OPTIONS,
});

/** The recommended flags this Node takes: what a start on it should add. */
export function recommendedFlags(runtime: Runtime = current()): string[] {
  return RECOMMENDED_NODE_FLAGS.filter((flag) => runtime.allowed.has(flag));
}

/** The recommended flags this Node takes but was started without. */
export function missingFlags(runtime: Runtime = current()): string[] {
  const given = new Set([...runtime.execArgv, ...(runtime.nodeOptions ?? '').split(/\s+/)]);
  return recommendedFlags(runtime).filter((flag) => !given.has(flag));
}
