import { type Expression, type RawBuilder, type SqlBool, sql } from 'kysely';
import { escapeLike } from '../reads/index.js';
import type { MatchType } from './collections.schema.js';
import { isNumeric, isTag, isValidRule, type Rule } from './rules.js';

/**
 * Smart-collection rules compiled to one SQL condition over the unaliased `products` table (validation:
 * rules.ts). Pure: no database, no I/O. User text only ever becomes a bound parameter; every piece of SQL
 * text comes from the fixed tables below.
 */

const PRODUCT_TEXT_COLUMNS: Record<string, RawBuilder<unknown>> = {
  title: sql.ref('products.title'),
  handle: sql.ref('products.handle'),
  status: sql.ref('products.status'),
  badge: sql.ref('products.badge'),
  vendor: sql.ref('products.vendor'),
  productType: sql.ref('products.product_type'),
};

const NUMERIC_COLUMNS: Record<string, RawBuilder<unknown>> = {
  price: sql.ref('products.price'),
  comparePrice: sql.ref('products.compare_price'),
  totalStock: sql.ref('products.total_stock'),
};

const TEXT_PATTERNS: Record<string, (value: string) => string> = {
  equals: (value) => escapeLike(value),
  not_equals: (value) => escapeLike(value),
  contains: (value) => `%${escapeLike(value)}%`,
  not_contains: (value) => `%${escapeLike(value)}%`,
  starts_with: (value) => `${escapeLike(value)}%`,
  ends_with: (value) => `%${escapeLike(value)}`,
};

const NEGATED = new Set(['not_equals', 'not_contains']);

/**
 * Text columns holding a closed set of lowercase ASCII words: products.status (its CHECK in
 * migrations/0002). For a printable-ASCII value, `ILIKE` without wildcards is ASCII case-insensitive
 * equality, so `equals` is exactly `= lower(value)` — which the (store_id, status, …) index serves,
 * where ILIKE made every smart collection on status read the whole catalog — and a value outside the
 * set matches no row. Other values (non-ASCII case folding) keep ILIKE.
 */
const CLOSED_TEXT_VALUES: Record<string, readonly string[]> = { status: ['active', 'disabled'] };
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** `equals`/`not_equals` on a closed column as exact comparisons, or undefined where ILIKE must stay. */
function compileClosed(rule: Rule): Expression<SqlBool> | undefined {
  const values = Object.hasOwn(CLOSED_TEXT_VALUES, rule.field) ? CLOSED_TEXT_VALUES[rule.field] : undefined;
  if (!values || !PRINTABLE_ASCII.test(rule.value) || (rule.operator !== 'equals' && rule.operator !== 'not_equals')) return undefined;
  const value = rule.value.toLowerCase();
  const known = values.includes(value);
  const column = PRODUCT_TEXT_COLUMNS[rule.field];
  if (rule.operator === 'equals') return known ? sql<SqlBool>`${column} = ${value}` : sql<SqlBool>`FALSE`;
  return known ? sql<SqlBool>`${column} IS DISTINCT FROM ${value}` : sql<SqlBool>`TRUE`;
}

/**
 * Text matching is case-insensitive ILIKE. A negated operator is the exact complement of its
 * positive one, so a product whose field is null (no badge, no variant SKU) matches it.
 */
function compileText(rule: Rule): Expression<SqlBool> {
  const closed = compileClosed(rule);
  if (closed) return closed;
  const pattern = TEXT_PATTERNS[rule.operator](rule.value);
  const negated = NEGATED.has(rule.operator);
  if (rule.field === 'sku') {
    // A simple product's own SKU, or any variant's; a product with neither matches no SKU.
    const match = sql<SqlBool>`(coalesce(products.sku ILIKE ${pattern}, false) OR EXISTS (SELECT 1 FROM variants WHERE variants.store_id = products.store_id AND variants.product_id = products.id AND variants.sku ILIKE ${pattern}))`;
    return negated ? sql<SqlBool>`NOT ${match}` : match;
  }
  const column = PRODUCT_TEXT_COLUMNS[rule.field];
  return negated ? sql<SqlBool>`(${column} IS NULL OR ${column} NOT ILIKE ${pattern})` : sql<SqlBool>`${column} ILIKE ${pattern}`;
}

/** Numbers compare exactly as NUMERIC; an unset (null) number only matches not_equals. */
function compileNumeric(rule: Rule): Expression<SqlBool> {
  const column = NUMERIC_COLUMNS[rule.field];
  const value = sql`${rule.value}::numeric`;
  switch (rule.operator) {
    case 'equals':
      return sql<SqlBool>`${column} = ${value}`;
    case 'not_equals':
      return sql<SqlBool>`${column} IS DISTINCT FROM ${value}`;
    case 'greater_than':
      return sql<SqlBool>`${column} > ${value}`;
    case 'less_than':
      return sql<SqlBool>`${column} < ${value}`;
    default:
      throw new Error(`operator ${rule.operator} does not apply to ${rule.field}`);
  }
}

/** Has (equals) or has not (not_equals) the tag, case-insensitively: the expression the tags index is built on. */
function compileTag(rule: Rule): Expression<SqlBool> {
  const has = sql<SqlBool>`storefront_lower_tags(products.tags) @> ARRAY[lower(${rule.value})]`;
  return rule.operator === 'equals' ? has : sql<SqlBool>`NOT ${has}`;
}

function compileRule(rule: Rule): Expression<SqlBool> {
  if (!isValidRule(rule)) throw new Error(`invalid rule ${JSON.stringify(rule)}`);
  if (isTag(rule.field)) return compileTag(rule);
  return isNumeric(rule.field) ? compileNumeric(rule) : compileText(rule);
}

/**
 * The rules as ONE boolean SQL expression over `products`: AND for 'all condition', OR for
 * 'any condition'. No rules match nothing. Throws on a rule that `conditionErrors` rejects.
 */
export function compileRules(matchType: MatchType, rules: readonly Rule[]): Expression<SqlBool> {
  if (rules.length === 0) return sql<SqlBool>`FALSE`;
  const joiner = matchType === 'any condition' ? sql` OR ` : sql` AND `;
  return sql<SqlBool>`(${sql.join(
    rules.map((rule) => sql`(${compileRule(rule)})`),
    joiner,
  )})`;
}
