import type { IRule } from 'graphql-shield';
import type { Context } from '../context';
import type { GroupDef } from '../family/group';
import { FamilyService } from '../family/service';
import { can, checkOf } from '../permissions/rules';
import { resourceName } from './outbox';
import type { EventEnvelope } from './envelope';

/**
 * Whether a caller may read an event: exactly the rules its record's queries apply. The READ rule
 * of the record's group (READ_<RESOURCE>, or the group's own, such as "a credential" for one's own
 * notifications), then the group's limits, data scope and visibility (`FamilyService.where`: the
 * condition every query adds), held against the record as the event carries it. Any condition
 * this cannot decide counts as not readable. The groups are the app's (src/app-modules.ts),
 * handed in by whoever composes it.
 */
export class EventReadability {
  private readonly groupOf: Map<string, GroupDef>;
  private readonly services = new Map<string, FamilyService<any>>();

  constructor(groups: readonly GroupDef[]) {
    this.groupOf = new Map(groups.map((g) => [resourceName(g.entity.name), g]));
  }

  /** The rule a query of this resource's records needs, or undefined for a resource without queries. */
  readRuleOf(resource: string): IRule | undefined {
    const group = this.groupOf.get(resource);
    return group ? (group.rules?.READ ?? can('READ', group.resource)) : undefined;
  }

  /** The caller holds the permission to read this resource's records (data scope aside). */
  mayReadResource(ctx: Context, resource: string): boolean {
    const rule = this.readRuleOf(resource);
    const check = rule && checkOf(rule);
    return Boolean(check && check(ctx) === true);
  }

  mayReadEvent(ctx: Context, event: EventEnvelope): boolean {
    const group = this.groupOf.get(event.resource.type);
    if (!group || !this.mayReadResource(ctx, event.resource.type)) return false;
    let service = this.services.get(event.resource.type);
    if (!service) this.services.set(event.resource.type, (service = new FamilyService(group)));
    return matchesWhere(event.data, service.where(ctx));
  }
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);

/**
 * A MikroORM condition held against a record in memory, for the operators queries' limits use
 * (equality, null, `$in`, `$and`, `$or`); any other operator fails closed.
 */
export function matchesWhere(record: unknown, where: unknown): boolean {
  if (!isPlainObject(record) || !isPlainObject(where)) return false;
  return Object.entries(where).every(([key, condition]) => {
    if (key === '$and' || key === '$or') {
      if (!Array.isArray(condition)) return false;
      const test = (c: unknown) => matchesWhere(record, c);
      return key === '$and' ? condition.every(test) : condition.some(test);
    }
    if (key.startsWith('$')) return false;
    const value = record[key] ?? null;
    if (condition === null) return value === null;
    if (!isPlainObject(condition)) return value === condition;
    return Object.entries(condition).every(([op, operand]) => {
      if (op === '$eq') return operand === null ? value === null : value === operand;
      if (op === '$in') return Array.isArray(operand) && operand.includes(value);
      return false;
    });
  });
}
