import { Client } from 'pg';
import { updatePatch, type HttpRequest, type Scenario, type Target } from './scenarios';

/**
 * The write tenant's upkeep: features for the deletes to take, the restore of the tables between
 * rounds, and the check that the service and the peer stored the same rows. Runs as the bench
 * database's owner, outside row-level security, on a connection of its own.
 */
export interface WriteTenant {
  tenantId: string;
  featureIds: string[];
}

/** The stored columns a create sets, as the check compares them. */
const SET_BY_CREATE = 'name, description, epic_id, priority, status, tags, estimated_points';

export class WriteUpkeep {
  private constructor(
    private readonly db: Client,
    private readonly tenant: WriteTenant,
  ) {}

  static async open(url: string, tenant: WriteTenant): Promise<WriteUpkeep> {
    const db = new Client({ connectionString: url });
    await db.connect();
    return new WriteUpkeep(db, tenant);
  }

  /** `n` new features of the write tenant, without epic or tasks, for deletes to take one each. */
  async pool(n: number): Promise<string[]> {
    const { rows } = await this.db.query<{ id: string }>(
      `insert into feature (tenant_id, id, created, created_by, updated, updated_by, version, name, description, priority, status, tags, estimated_points)
       select $1, gen_random_uuid(), now(), 'bench', now(), 'bench', 1, 'Bench pool ' || g, 'Made to be deleted.', 'LOW', 'BACKLOG', '{}', 1
       from generate_series(1, $2::int) g returning id`,
      [this.tenant.tenantId, n],
    );
    return rows.map((r) => r.id);
  }

  /**
   * The state every round starts from: the write tenant without the features the writes added or
   * left undeleted, and every table vacuumed with fresh statistics (autovacuum may be off), so a
   * round's plans do not depend on what the rounds before it wrote.
   */
  async restore(): Promise<void> {
    await this.db.query(
      `delete from feature where tenant_id = $1 and (name like 'Bench feature %' or name like 'Bench pool %')`,
      [this.tenant.tenantId],
    );
    await this.db.query('vacuum (analyze)');
  }

  private async count(ids: string[]): Promise<number> {
    const { rows } = await this.db.query<{ n: number }>(
      'select count(*)::int as n from feature where tenant_id = $1 and id = any($2::uuid[])',
      [this.tenant.tenantId, ids],
    );
    return rows[0].n;
  }

  /**
   * Whether each target's write stored what the request asked, the same for every target: one
   * request per target, then the rows read back. Creates compare the set columns across targets;
   * updates the two changed fields against the patch; deletes that every named row is gone and no
   * other. `numbered` numbers the requests (another checkout sharing the database checks with others).
   */
  async sameRows(
    scenario: Scenario,
    send: (target: Target, req: HttpRequest) => Promise<number>,
    pools: Map<Target, string[]>,
    numbered = 900_000,
  ): Promise<Map<Target, boolean>> {
    const out = new Map<Target, boolean>();
    const targets = scenario.targets;
    if (scenario.key === 'create') {
      const i = numbered + 1;
      for (const t of targets) out.set(t, (await send(t, scenario.request(t, i))) < 300);
      const { rows } = await this.db.query(
        `select ${SET_BY_CREATE} from feature where tenant_id = $1 and name = $2`,
        [this.tenant.tenantId, `Bench feature ${i}`],
      );
      const first = JSON.stringify(rows[0]);
      const same = rows.length === targets.length && rows.every((r) => JSON.stringify(r) === first);
      for (const t of targets) out.set(t, out.get(t)! && same);
      return out;
    }
    if (scenario.key === 'update') {
      for (const [k, t] of targets.entries()) {
        const i = numbered + k;
        const ok = (await send(t, scenario.request(t, i))) < 300;
        const id = this.tenant.featureIds[i % this.tenant.featureIds.length];
        const { rows } = await this.db.query<{ name: string; priority: string }>(
          'select name, priority from feature where tenant_id = $1 and id = $2',
          [this.tenant.tenantId, id],
        );
        const want = updatePatch(i);
        out.set(t, ok && rows[0]?.name === want.name && rows[0]?.priority === want.priority);
      }
      return out;
    }
    if (scenario.deletes) {
      const before = await this.db.query<{ n: number }>(
        'select count(*)::int as n from feature where tenant_id = $1',
        [this.tenant.tenantId],
      );
      for (const t of targets) {
        const ids = await this.pool(scenario.deletes);
        pools.set(t, ids);
        const ok = (await send(t, scenario.request(t, 0))) < 300;
        out.set(t, ok && (await this.count(ids)) === 0);
      }
      const after = await this.db.query<{ n: number }>(
        'select count(*)::int as n from feature where tenant_id = $1',
        [this.tenant.tenantId],
      );
      // Every row made for the check was deleted, and nothing else.
      if (after.rows[0].n !== before.rows[0].n) for (const t of targets) out.set(t, false);
      return out;
    }
    return out;
  }

  close(): Promise<void> {
    return this.db.end();
  }
}
