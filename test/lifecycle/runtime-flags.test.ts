import { execFileSync } from 'node:child_process';
import { missingFlags, recommendedFlags, RECOMMENDED_NODE_FLAGS } from '../../src/runtime-flags';

/**
 * The Node flags recommended where a Node takes them (src/runtime-flags.ts): asked of a Node
 * described here, so that each case runs on every version CI tests, and of this Node itself.
 */
const FLAG = '--experimental-async-context-frame';
const node22 = { allowed: new Set(['--max-semi-space-size', FLAG]), execArgv: [], nodeOptions: undefined };
const node24 = { allowed: new Set(['--max-semi-space-size']), execArgv: [], nodeOptions: undefined };

describe('recommended Node flags', () => {
  it('recommends the AsyncContextFrame flag on a Node that takes it, and nothing on one that does not', () => {
    expect(RECOMMENDED_NODE_FLAGS).toContain(FLAG);
    expect(recommendedFlags(node22)).toEqual([FLAG]);
    expect(missingFlags(node22)).toEqual([FLAG]);
    expect(recommendedFlags(node24)).toEqual([]);
    expect(missingFlags(node24)).toEqual([]);
  });

  it('counts a flag given on the command line or in NODE_OPTIONS as given', () => {
    expect(missingFlags({ ...node22, execArgv: ['--max-semi-space-size=32', FLAG] })).toEqual([]);
    expect(missingFlags({ ...node22, nodeOptions: `--max-old-space-size=512 ${FLAG}` })).toEqual([]);
    expect(missingFlags({ ...node22, nodeOptions: '--max-old-space-size=512' })).toEqual([FLAG]);
  });

  it('gives this Node only flags it starts with', () => {
    const flags = recommendedFlags();
    const out = execFileSync(
      process.execPath,
      [...flags, '-p', 'process.execArgv.filter((a) => a.startsWith("--")).join(" ")'],
      {
        encoding: 'utf8',
        env: { ...process.env, NODE_OPTIONS: '' },
      },
    );
    expect(out.trim()).toBe(flags.join(' '));
    // Node 22 takes it; Node 24 has its effect by default and refuses it; Node 20 has neither.
    const major = Number(process.versions.node.split('.')[0]);
    expect(flags.includes(FLAG)).toBe(major === 22);
  });
});
