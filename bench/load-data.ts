import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/core';
import type { Actor } from '../src/db/tenancy';
import { withTenant } from '../src/db/tenant-transaction';
import { HistoryEntry, HistoryType } from '../src/entities/history-entry';
import { Epic, EpicStatus } from '../src/domain/hr/entities/epic';
import { Feature, FeaturePriority, FeatureStatus } from '../src/domain/hr/entities/feature';
import { Task, TaskStatus } from '../src/domain/hr/entities/task';
import { Permissions, TenantRole } from '../src/entities/tenant-role';
import { createTenant, createUser } from '../src/services/provisioning';

/**
 * The data set, written through the service's own code: tenants and users by the provisioning
 * service, records by the ORM's insertMany with the entities' own metadata, in tenant
 * transactions (row-level security applies, as for the service). insertMany bypasses the flush
 * subscriber, so the audit fields and history entries it would have written are set here the same way.
 */

/** A user of a tenant that the scenarios act as. */
export interface BenchUser {
  id: string;
  email: string;
}

export interface LoadedTenant {
  tenantId: string;
  name: string;
  admin: BenchUser;
  /** A planner holding a role with the project permissions: the usual, non-super-admin caller. */
  planner: BenchUser;
  features: number;
  /** Ids of some features, for find/{id}, in no particular order. */
  sampleFeatureIds: string[];
  epicIds: string[];
}

export interface TenantShape {
  name: string;
  features: number;
  epics: number;
  /** Tasks per feature are drawn uniformly from 0..maxTasks. */
  maxTasks: number;
}

/** Seeded, so runs load data of the same shape (chunks written in parallel may interleave the draws). */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ADJECTIVES = ['Agile', 'Bold', 'Calm', 'Deep', 'Eager', 'Fast', 'Grand', 'Handy', 'Ideal', 'Jolly'];
const NOUNS = [
  'Report',
  'Export',
  'Search',
  'Import',
  'Audit',
  'Login',
  'Invoice',
  'Upload',
  'Sync',
  'Chart',
];
const TAGS = ['backend', 'frontend', 'ux', 'security', 'performance', 'api', 'mobile', 'billing'];
/** Roughly a real backlog: most features wait, a quarter are ready. */
const STATUSES: [FeatureStatus, number][] = [
  [FeatureStatus.BACKLOG, 0.4],
  [FeatureStatus.READY, 0.25],
  [FeatureStatus.IN_PROGRESS, 0.2],
  [FeatureStatus.DONE, 0.15],
];
const PRIORITIES = Object.values(FeaturePriority);
const TASK_STATUSES = Object.values(TaskStatus);

const pick = <T>(r: () => number, list: readonly T[]): T => list[Math.floor(r() * list.length)];

function weighted<T>(r: () => number, table: [T, number][]): T {
  let x = r();
  for (const [value, weight] of table) {
    if (x < weight) return value;
    x -= weight;
  }
  return table[table.length - 1][0];
}

const DAY = 86_400_000;
const CHUNK = 2000;

/** A history entry as the flush would have written it, at `at` (the n-th of its record). */
function entry(
  actor: Actor,
  recordType: string,
  recordId: string,
  type: HistoryType,
  description: string,
  at: Date,
  n = 0,
): Record<string, unknown> {
  return {
    tenantId: actor.tenantId,
    id: randomUUID(),
    recordType,
    recordId,
    type,
    seq: at.getTime() * 1000 + n,
    occurredAt: at,
    actorUserId: actor.userId,
    actorEmail: actor.email,
    description,
  };
}

function history(
  r: () => number,
  actor: Actor,
  id: string,
  created: Date,
  status: FeatureStatus,
  kind: string,
): Record<string, unknown>[] {
  const entries = [entry(actor, kind, id, HistoryType.CREATE, `Created ${kind}`, created)];
  let when = created.getTime();
  for (let i = Math.floor(r() * 3); i > 0; i--) {
    when += Math.floor(r() * 10 * DAY);
    entries.push(entry(actor, kind, id, HistoryType.UPDATE, 'Updated description', new Date(when), i));
  }
  if (status !== FeatureStatus.BACKLOG) {
    when += Math.floor(r() * 10 * DAY);
    entries.push(
      entry(actor, kind, id, HistoryType.STATUS_CHANGE, `BACKLOG -> ${status}`, new Date(when), 9),
    );
  }
  return entries;
}

/** Runs `chunks` writers with at most `parallel` in flight. */
async function inChunks(total: number, parallel: number, write: (from: number, to: number) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const from = next;
      next = Math.min(total, next + CHUNK);
      await write(from, next);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
}

async function plannerRole(em: EntityManager, tenantId: string): Promise<string> {
  const permissions = new Permissions();
  permissions.projectsPermissions = ['FEATURES', 'EPICS', 'TASKS'].flatMap((r) =>
    ['READ', 'CREATE', 'UPDATE', 'DELETE'].map((v) => `${v}_${r}`),
  );
  await em.insertMany(TenantRole, [
    {
      tenantId,
      id: randomUUID(),
      version: 1,
      name: 'planner',
      permissions,
      created: new Date(),
      updated: new Date(),
    },
  ]);
  return 'planner';
}

export async function loadTenant(orm: MikroORM, shape: TenantShape, seed: number): Promise<LoadedTenant> {
  const r = prng(seed);
  const slug = shape.name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const { tenant, admin } = await createTenant(orm.em, {
    name: shape.name,
    adminEmail: `admin@${slug}.bench.test`,
  });
  const actor: Actor = { tenantId: tenant.id, userId: admin.id, email: admin.email };
  const role = await withTenant(orm.em, actor, (em) => plannerRole(em, tenant.id));
  const planner = await createUser(orm.em, {
    tenantId: tenant.id,
    email: `planner@${slug}.bench.test`,
    roles: [role],
    hasFullAccess: true,
    actorEmail: admin.email,
    actorId: admin.id,
  });

  const now = Date.now();
  const audit = (created: Date) => ({
    tenantId: tenant.id,
    version: 1,
    created,
    updated: created,
    createdBy: admin.email,
    updatedBy: admin.email,
  });

  const epicIds = Array.from({ length: shape.epics }, () => randomUUID());
  const epicCreated = (i: number) => new Date(now - 800 * DAY + i * 1000);
  await withTenant(orm.em, actor, async (em) => {
    await em.insertMany(
      Epic,
      epicIds.map((id, i) => ({
        ...audit(epicCreated(i)),
        id,
        name: `Epic ${i} ${pick(r, NOUNS)}`,
        color: pick(r, ['red', 'green', 'blue']),
        status: pick(r, Object.values(EpicStatus)),
        tags: [],
      })),
    );
    await em.insertMany(
      HistoryEntry,
      epicIds.map((id, i) =>
        entry(actor, 'Epic', id, HistoryType.CREATE, 'Created Epic', epicCreated(i)),
      ) as never[],
    );
  });

  const sampleFeatureIds: string[] = [];
  const sampleEvery = Math.max(1, Math.floor(shape.features / 2000));
  await inChunks(shape.features, 2, async (from, to) => {
    const features: Record<string, unknown>[] = [];
    const tasks: Record<string, unknown>[] = [];
    const entries: Record<string, unknown>[] = [];
    for (let i = from; i < to; i++) {
      const id = randomUUID();
      if (i % sampleEvery === 0) sampleFeatureIds.push(id);
      const created = new Date(now - 730 * DAY + Math.floor((i / shape.features) * 720 * DAY));
      const status = weighted(r, STATUSES);
      const epicId = r() < 0.9 ? pick(r, epicIds) : undefined;
      features.push({
        ...audit(created),
        id,
        name: `${pick(r, ADJECTIVES)} ${pick(r, NOUNS)} ${String(i).padStart(6, '0')}`,
        description: `As a user I want the ${pick(r, NOUNS).toLowerCase()} to be ${pick(r, ADJECTIVES).toLowerCase()}, so that work flows.`,
        epicId,
        priority: pick(r, PRIORITIES),
        status,
        tags: TAGS.filter(() => r() < 0.2),
        estimatedPoints: pick(r, [1, 2, 3, 5, 8, 13]),
      });
      entries.push(...history(r, actor, id, created, status, 'Feature'));
      for (let t = Math.floor(r() * (shape.maxTasks + 1)); t > 0; t--) {
        const taskId = randomUUID();
        tasks.push({
          ...audit(created),
          id: taskId,
          title: `Task ${t} of feature ${i}`,
          status: pick(r, TASK_STATUSES),
          featureId: id,
          epicId,
        });
        entries.push(entry(actor, 'Task', taskId, HistoryType.CREATE, 'Created Task', created));
      }
    }
    await withTenant(orm.em, actor, async (em) => {
      await em.insertMany(Feature, features as never[]);
      for (let t = 0; t < tasks.length; t += CHUNK)
        await em.insertMany(Task, tasks.slice(t, t + CHUNK) as never[]);
      for (let e = 0; e < entries.length; e += CHUNK)
        await em.insertMany(HistoryEntry, entries.slice(e, e + CHUNK) as never[]);
    });
  });

  return {
    tenantId: tenant.id,
    name: shape.name,
    admin: { id: admin.id, email: admin.email },
    planner: { id: planner.id, email: planner.email },
    features: shape.features,
    sampleFeatureIds,
    epicIds,
  };
}

export async function timed<T>(
  label: string,
  work: () => Promise<T>,
): Promise<{ value: T; seconds: number }> {
  const start = process.hrtime.bigint();
  const value = await work();
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  console.log(`  ${label}: ${seconds.toFixed(1)} s`);
  return { value, seconds };
}
