import type { ProductOption } from '../db/index.js';
import type { ErrorDetail } from '../errors.js';
import { forbiddenKeyProblem, toSlug } from '../shared/index.js';
import type { OptionInput } from './products.schema.js';

/** Pure rules of product options and their variants (CONTRACT §6); no database here. */

export const MAX_VARIANTS = 2048;

export type { ProductOption };

/** A variant's combination: option name -> value, in option order. */
export type Combination = Record<string, string>;

const detail = (field: string, message: string): ErrorDetail => ({ field, in: 'body', message });

function duplicates(items: string[], field: (index: number) => string, what: string): ErrorDetail[] {
  const seen = new Set<string>();
  return items.flatMap((item, index) => {
    const key = item.toLowerCase();
    if (seen.has(key)) return [detail(field(index), `${what} is listed twice (case-insensitive)`)];
    seen.add(key);
    return [];
  });
}

/** The number of variants `options` generate (the empty product of no options is no variant). */
export function variantCount(options: ProductOption[]): number {
  return options.length === 0 ? 0 : options.reduce((count, option) => count * option.values.length, 1);
}

/**
 * Trims names and values and checks them: names unique (case-insensitive) and never a forbidden key (a name
 * is a key of every variant's `attributes`), values unique within their option (case-insensitive, since their
 * SKUs would collide), at most MAX_VARIANTS variants.
 */
export function normalizeOptions(input: OptionInput[]): { options: ProductOption[]; details: ErrorDetail[] } {
  const options = input.map((option) => ({ name: option.name.trim(), values: option.values.map((value) => value.trim()) }));
  const details = [
    ...duplicates(
      options.map((option) => option.name),
      (i) => `options[${i}].name`,
      'option name',
    ),
    ...options.flatMap((option, i) => duplicates(option.values, (j) => `options[${i}].values[${j}]`, 'value')),
    ...options.flatMap((option, i) => {
      const problem = forbiddenKeyProblem(option.name);
      return problem ? [detail(`options[${i}].name`, problem)] : [];
    }),
  ];
  const count = variantCount(options);
  if (count > MAX_VARIANTS) details.push(detail('options', `would generate ${count} variants; at most ${MAX_VARIANTS} are allowed`));
  return { options, details };
}

/** Every combination of one value per option, the first option varying slowest. */
export function combinations(options: ProductOption[]): Combination[] {
  if (options.length === 0) return [];
  return options.reduce<Combination[]>(
    (partial, option) => partial.flatMap((combination) => option.values.map((value) => ({ ...combination, [option.name]: value }))),
    [{}],
  );
}

/** Identity of a combination: option names compare case-insensitively and in any order, values exactly. */
export function combinationKey(combination: Combination): string {
  return JSON.stringify(
    Object.entries(combination)
      .map(([name, value]) => [name.toLowerCase(), value])
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
}

export interface ExistingVariant {
  id: string;
  attributes: Combination;
}

export interface VariantPlan {
  /** surviving variants: same id, new position and (respelled, reordered) attributes */
  keep: { id: string; position: number; attributes: Combination }[];
  create: { position: number; attributes: Combination }[];
  remove: string[];
}

/**
 * Which combinations of the options are variants (CONTRACT §6, variants that do not exist): `listed` keeps
 * exactly those combinations (`variantsExactly`); `before` (the options a stored product had) keeps the
 * surviving variants and adds only combinations holding a value that was not in them, so a deleted
 * combination stays deleted; neither (a new product) takes every combination.
 */
export interface CombinationRule {
  listed?: Set<string>;
  before?: ProductOption[];
}

/** Whether a combination holds a value (or an option) that `before` did not have. */
function hasNewValue(combination: Combination, before: ProductOption[]): boolean {
  const known = new Map(before.map((option) => [option.name.toLowerCase(), new Set(option.values)]));
  return Object.entries(combination).some(([name, value]) => !known.get(name.toLowerCase())?.has(value));
}

/** What to do with a product's variants when its options become `options`, under `rule`. */
export function planVariants(options: ProductOption[], existing: ExistingVariant[], rule: CombinationRule = {}): VariantPlan {
  const byKey = new Map(existing.map((variant) => [combinationKey(variant.attributes), variant.id]));
  const { listed, before } = rule;
  const plan: VariantPlan = { keep: [], create: [], remove: [] };
  let position = 0;
  for (const attributes of combinations(options)) {
    const key = combinationKey(attributes);
    const id = byKey.get(key);
    const wanted = listed ? listed.has(key) : !before || id !== undefined || hasNewValue(attributes, before);
    if (!wanted) continue;
    if (id) plan.keep.push({ id, position, attributes });
    else plan.create.push({ position, attributes });
    byKey.delete(key);
    position += 1;
  }
  const kept = new Set(plan.keep.map((variant) => variant.id));
  plan.remove = existing.filter((variant) => !kept.has(variant.id)).map((variant) => variant.id);
  return plan;
}

/** A generated SKU: the product handle and the slugs of the variant's values, e.g. `tee-m-red`. */
export function skuOf(handle: string, combination: Combination): string {
  return [handle, ...Object.values(combination).map(toSlug)].filter(Boolean).join('-');
}
