import { randomUUID } from 'node:crypto';
import { pairBooleans } from '../../entities/shared';
import type { Context } from '../../context';
import { badRequest } from '../../errors';
import type { StaticModel, StaticModelInput, StaticModelStats } from './entities/type-shapes';
import { ConfiguratorType } from './entities/configurator-type';
import type { CreateConfiguratorTypeInput, UpdateConfiguratorTypeInput } from './api/type-inputs';
import { applyTypeTotals } from './coverage-figures';

type TypeInput = Partial<CreateConfiguratorTypeInput & UpdateConfiguratorTypeInput>;

const LISTS = [
  'enforcedCategories',
  'baseVariables',
  'variables',
  'options',
  'models',
  'massModel',
  'restrictions',
  'staticModels',
  'views',
] as const;

const mismatch =
  (path: string) =>
  (a: string, b: string): never => {
    throw badRequest(`${path}: ${a} and ${b} mean the same and must not differ`);
  };

const withId = <T extends { id?: string | null }>(entry: T): T =>
  entry.id ? entry : { ...entry, id: randomUUID() };

function checkUnique(ids: readonly string[], field: string): void {
  const seen = new Set<string>();
  ids.forEach((id, i) => {
    if (id.trim() === '') throw badRequest(`${field}[${i}].id must not be empty`);
    if (seen.has(id)) throw badRequest(`${field}[${i}].id "${id}" is used twice`);
    seen.add(id);
  });
}

/** The stats of the stored static models: only the coverage calculation writes them. */
async function storedStats(ctx: Context, type: ConfiguratorType): Promise<Map<string, StaticModelStats>> {
  // Read past the identity map (which holds the entity as changed by this update), on the
  // request's own connection and transaction.
  const stored = await ctx.em.findOne(
    ConfiguratorType,
    { id: type.id },
    { fields: ['staticModels'] as never, disableIdentityMap: true },
  );
  return new Map(
    (stored?.staticModels ?? []).filter((m) => m.id && m.stats).map((m) => [m.id!, m.stats!] as const),
  );
}

function staticModelFrom(
  input: StaticModelInput,
  index: number,
  stats: Map<string, StaticModelStats>,
): StaticModel {
  const id = input.id || randomUUID();
  const overrides = input.nameOverrides ?? null;
  for (const [key, value] of Object.entries(overrides ?? {})) {
    if (typeof value !== 'string')
      throw badRequest(`staticModels[${index}].nameOverrides.${key} must be a string`);
  }
  return {
    id,
    modelNamePrefix: input.modelNamePrefix ?? null,
    type: input.type ?? null,
    nameOverrides: overrides,
    stats: stats.get(id) ?? null,
    models: input.models ?? null,
  };
}

/**
 * Keeps a type's collections well-formed whatever the input: lists are never null, each boolean
 * pair holds one value under both names, entries get ids, variable and static-model ids are
 * unique (the REST paths and the coverage jobs name them), and the totals follow the stats.
 */
export async function prepareType(
  ctx: Context,
  type: ConfiguratorType,
  input: TypeInput,
  isNew: boolean,
): Promise<void> {
  for (const list of LISTS) if (type[list] == null) (type as unknown as Record<string, unknown[]>)[list] = [];
  type.compensateNulpunt ??= false;
  type.hideBaseOptionInName ??= false;
  const given = (field: keyof TypeInput) => isNew || field in input;

  if (given('options'))
    type.options = type.options.map((o, i) =>
      withId(pairBooleans(o, [['neighborOption', 'isNeighborOption']], mismatch(`options[${i}]`))),
    );
  if (given('restrictions'))
    type.restrictions = type.restrictions.map((r, i) =>
      withId(pairBooleans(r, [['active', 'isActive']], mismatch(`restrictions[${i}]`))),
    );
  if (given('views'))
    type.views = type.views.map((v, i) =>
      withId(pairBooleans(v, [['active', 'isActive']], mismatch(`views[${i}]`))),
    );
  if (given('models')) type.models = type.models.map(withId);
  if (given('massModel')) type.massModel = type.massModel.map(withId);
  if (given('staticModels')) {
    const stats = isNew ? new Map<string, StaticModelStats>() : await storedStats(ctx, type);
    type.staticModels = (type.staticModels as StaticModelInput[]).map((m, i) => staticModelFrom(m, i, stats));
  }

  checkUnique(
    type.variables.map((v) => v.id),
    'variables',
  );
  checkUnique(
    type.baseVariables.map((v) => v.id),
    'baseVariables',
  );
  checkUnique(
    type.staticModels.map((m) => m.id ?? ''),
    'staticModels',
  );
  applyTypeTotals(type);
}
