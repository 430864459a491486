import 'reflect-metadata';
import { appModules } from '../../src/app-modules';
import { entities } from '../../src/orm-composition';
import { HistorySettings } from '../../src/entities/history-settings';
import { LiveTenant } from '../../src/entities/live-tenant';
import { TenantScoped } from '../../src/entities/tenant-scoped';
import { WebhookBacklog } from '../../src/entities/webhook-backlog';
import { eventResources } from '../../src/events/catalog';
import { keepsHistory } from '../../src/history/recorder';

/**
 * The ORM's entity list takes each domain's entities from its module's `entities/index.ts`, the
 * list the module's registry gives the app too: the two must name the same tables, each once.
 */
describe('domain modules', () => {
  const fromModules = appModules.flatMap((m) => m.entities);

  it("give the ORM every table they own, and no table is two modules'", () => {
    expect(fromModules.filter((e) => !entities.includes(e)).map((e) => e.name)).toEqual([]);
    expect(new Set(fromModules).size).toBe(fromModules.length);
  });

  it("own every table outside the kernel: an entity in the ORM is a module's or a shared one", () => {
    const shared = entities.filter((e) => !fromModules.includes(e)).map((e) => e.name);
    expect(shared).toEqual([
      'Tenant',
      'User',
      'TenantRole',
      'AuditLog',
      'HistoryEntry',
      'HistorySettings',
      'TenantSequence',
      'IdempotencyKey',
      'TrustedIssuer',
      'ApiKey',
      'CallerVersion',
      'TenantExport',
      'JobRun',
      'OutboxEvent',
      'LiveTenant',
      'WebhookBacklog',
    ]);
  });

  it('serve each group, resolver, REST row and job from one module', () => {
    for (const kind of ['groups', 'resolvers', 'routes', 'jobs'] as const) {
      const all = appModules.flatMap((m) => (m[kind] ?? []) as readonly unknown[]);
      expect(new Set(all).size).toBe(all.length);
    }
    const jobNames = appModules.flatMap((m) => m.jobs ?? []).map((j) => j.name);
    expect(new Set(jobNames).size).toBe(jobNames.length);
  });

  it("record no history and raise no event for the kernel's bookkeeping tables", () => {
    // The flush's subscribers pick records by these tests: tenancy stamps a TenantScoped record,
    // history keeps what keepsHistory admits, and the outbox raises the catalog's events.
    const bookkeeping = [HistorySettings, LiveTenant, WebhookBacklog];
    for (const entity of bookkeeping) {
      const record: unknown = Object.create(entity.prototype as object);
      expect([entity.name, record instanceof TenantScoped]).toEqual([entity.name, false]);
      expect([entity.name, keepsHistory(record, entity.name)]).toEqual([entity.name, false]);
    }
    const names = bookkeeping.map((e) => e.name);
    expect(eventResources(entities).filter((r) => names.includes(r.entity))).toEqual([]);
  });
});
