import type { Parameter } from '../../entities/shared';
import { badRequest } from '../../errors';
import type { DecisionChoice, DecisionTree } from './entities/decision-tree';
import type { ConfiguratorType } from './entities/configurator-type';
import type { StaticModel, StaticModelVariant } from './entities/type-shapes';

/**
 * Walking decision trees. A branch applies when every one of its choices is among the selected
 * {code, option} pairs (exact, case-sensitive comparison); the first branch that applies wins,
 * so a branch without choices always applies. When none does, the tree's default
 * (`decisionTree.result`) is the answer, or null.
 */
const choiceKey = (code: unknown, option: unknown) => JSON.stringify([code, option]);

export function resolveTree<R>(
  tree: DecisionTree<R> | null | undefined,
  selection: readonly DecisionChoice[],
): R | null {
  const chosen = new Set(selection.map((c) => choiceKey(c.code, c.option)));
  for (const branch of tree?.branches ?? []) {
    if ((branch.choices ?? []).every((c) => chosen.has(choiceKey(c.code, c.option)))) {
      return branch.result ?? null;
    }
  }
  return tree?.decisionTree?.result ?? null;
}

/** One product variant a static model stands for: a row of the type's product coverage. */
export interface CoverageVariant {
  variantId: string;
  productName: string;
  parameters: Parameter[];
}

/** A calculation beyond this many variants is refused: the options multiply out too far. */
export const MAX_VARIANTS = 10_000;

interface ChosenCode {
  option: string;
  code: string;
  description: string;
  isBase: boolean;
}

/** The code combinations an exhaustive result stands for: the cartesian product of its options' codes. */
function combinations(
  type: ConfiguratorType,
  model: StaticModel,
  result: StaticModelVariant,
): ChosenCode[][] {
  if (!result.isExhaustive || (result.exhaustiveOptions ?? []).length === 0) return [[]];
  const axes = result.exhaustiveOptions.map((wanted) => {
    const option =
      type.options.find((o) => o.name === wanted) ?? type.options.find((o) => o.id === wanted) ?? null;
    if (!option) {
      throw badRequest(
        `static model ${model.id}: exhaustive option "${wanted}" of variant ${result.id ?? result.name} is not an option of type ${type.name}`,
      );
    }
    return (option.codes ?? [])
      .filter((c) => typeof c.code === 'string' && c.code !== '')
      .map((c, i) => ({
        option: option.name ?? wanted,
        code: c.code!,
        description: c.description ?? '',
        isBase: i === 0,
      }));
  });
  const nonEmpty = axes.filter((a) => a.length > 0);
  const count = nonEmpty.reduce((n, a) => n * a.length, 1);
  if (count > MAX_VARIANTS) {
    throw badRequest(`static model ${model.id}: ${count} combinations exceed the limit of ${MAX_VARIANTS}`);
  }
  return nonEmpty.reduce<ChosenCode[][]>(
    (combos, axis) => combos.flatMap((combo) => axis.map((code) => [...combo, code])),
    [[]],
  );
}

function productName(
  type: ConfiguratorType,
  model: StaticModel,
  result: StaticModelVariant,
  key: string,
  combo: ChosenCode[],
): string {
  const format = type.variantSuffixFormat ?? '-{code}';
  const suffixes = combo
    .filter((c) => !(type.hideBaseOptionInName && c.isBase))
    .map((c) =>
      format
        .replaceAll('{option}', c.option)
        .replaceAll('{code}', c.code)
        .replaceAll('{description}', c.description),
    );
  return `${model.modelNamePrefix ?? ''}${result.name ?? key}${suffixes.join('')}`;
}

/**
 * The variants of a static model: every result of its tree (branches in order, then the
 * default) that is not marked empty, an exhaustive result expanded into one variant per code
 * combination. Variant ids are the result's id (else the branch's), plus `/option=code` per
 * chosen code; the first occurrence of an id wins. `nameOverrides` replaces generated names by
 * variant id.
 */
export function staticModelVariants(type: ConfiguratorType, model: StaticModel): CoverageVariant[] {
  const tree = model.models;
  const results: { key: string; result: StaticModelVariant }[] = [];
  (tree?.branches ?? []).forEach((branch, i) => {
    if (branch.result)
      results.push({ key: branch.result.id ?? branch.id ?? `branch-${i}`, result: branch.result });
  });
  const fallback = tree?.decisionTree;
  if (fallback?.result)
    results.push({ key: fallback.result.id ?? fallback.id ?? 'default', result: fallback.result });

  const variants: CoverageVariant[] = [];
  const seen = new Set<string>();
  for (const { key, result } of results) {
    if (result.isEmpty) continue;
    for (const combo of combinations(type, model, result)) {
      const variantId = [key, ...combo.map((c) => `${c.option}=${c.code}`)].join('/');
      if (seen.has(variantId)) continue;
      seen.add(variantId);
      if (variants.length >= MAX_VARIANTS) {
        throw badRequest(`static model ${model.id}: more than ${MAX_VARIANTS} variants`);
      }
      variants.push({
        variantId,
        productName: model.nameOverrides?.[variantId] ?? productName(type, model, result, key, combo),
        parameters: [
          ...(result.parameters ?? []),
          ...combo.map((c) => ({ name: c.option, type: 'option', value: c.code })),
        ],
      });
    }
  }
  return variants;
}
