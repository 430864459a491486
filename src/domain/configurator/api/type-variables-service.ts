import type { ConfiguratorType } from '../entities/configurator-type';
import type { DecisionChoice } from '../entities/decision-tree';
import type {
  TypeVariable,
  VariableConfigEntry,
  VariablePhase,
  VariableSummary,
} from '../entities/type-shapes';
import type { Context } from '../../../context';
import { badRequest, conflict, notFound } from '../../../errors';
import { MAX_IDS } from '../../../limits';
import { FamilyService } from '../../../family/service';
import { resolveTree } from '../decision-trees';
import { configuratorTypes } from './types';

/**
 * The type-variable operations of section 4.8. Variables live in their type's `variables`
 * column, so every change is an update of the type: it takes the type's optimistic lock and
 * appends an UPDATE event ("Updated variables") to the type.
 */
const types = new FamilyService(configuratorTypes);

function variableOf(type: ConfiguratorType, variableId: string): TypeVariable {
  const variable = type.variables.find((v) => v.id === variableId);
  if (!variable) throw notFound(`type ${type.id} has no variable "${variableId}"`);
  return variable;
}

/** Each variable of the type with the configuration its tree gives for the selection. */
export async function resolveVariables(
  ctx: Context,
  typeId: string,
  selection: readonly DecisionChoice[],
): Promise<VariableConfigEntry[]> {
  // The same cap as for id lists keeps one request small.
  if (selection.length > MAX_IDS) throw badRequest(`the selection may hold at most ${MAX_IDS} choices`);
  const type = await types.oneOrFail(ctx, typeId);
  return type.variables.map((v) => ({ id: v.id, configuration: resolveTree(v.tree, selection) }));
}

/** Variables whose id contains `search`, ignoring case. */
export async function searchVariables(
  ctx: Context,
  typeId: string,
  search: string,
): Promise<VariableSummary[]> {
  const term = search.trim().toLowerCase();
  if (term === '') throw badRequest('search must not be empty');
  const type = await types.oneOrFail(ctx, typeId);
  return type.variables
    .filter((v) => v.id.toLowerCase().includes(term))
    .map((v) => ({ id: v.id, phase: v.phase ?? null }));
}

export async function readVariable(ctx: Context, typeId: string, variableId: string): Promise<TypeVariable> {
  const variable = variableOf(await types.oneOrFail(ctx, typeId), variableId);
  return { id: variable.id, phase: variable.phase ?? null, tree: variable.tree ?? null };
}

export interface VariableChange {
  id?: string | null;
  phase?: VariablePhase | null;
}

/** Renames and/or re-phases a variable; a new id already used by another variable is a 409. */
export async function updateVariable(
  ctx: Context,
  typeId: string,
  variableId: string,
  change: VariableChange,
): Promise<ConfiguratorType> {
  const type = await types.oneOrFail(ctx, typeId);
  const variable = variableOf(type, variableId);
  const newId = change.id ?? variable.id;
  if (newId.trim() === '') throw badRequest('id must not be blank');
  if (newId !== variableId && type.variables.some((v) => v.id === newId)) {
    throw conflict(`type ${type.id} already has a variable "${newId}"`);
  }
  const phase = change.phase === undefined ? (variable.phase ?? null) : change.phase;
  type.variables = type.variables.map((v) => (v === variable ? { ...v, id: newId, phase } : v));
  await ctx.em.flush();
  return type;
}

export async function deleteVariable(
  ctx: Context,
  typeId: string,
  variableId: string,
): Promise<ConfiguratorType> {
  const type = await types.oneOrFail(ctx, typeId);
  const variable = variableOf(type, variableId);
  type.variables = type.variables.filter((v) => v !== variable);
  await ctx.em.flush();
  return type;
}
