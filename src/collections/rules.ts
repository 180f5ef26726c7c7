import type { ErrorDetail } from '../errors.js';
import {
  CONDITION_FIELDS,
  NUMERIC_FIELDS,
  NUMERIC_OPERATORS,
  TAG_FIELDS,
  TAG_OPERATORS,
  TEXT_FIELDS,
  TEXT_OPERATORS,
} from './collections.schema.js';

/**
 * Smart-collection rules: their validation. Pure: no database, no I/O. The compiler of valid rules to one
 * SQL condition is rules.sql.ts.
 */

export interface Rule {
  field: string;
  operator: string;
  value: string;
}

// A decimal in plain or exponent notation, as PostgreSQL's numeric input accepts it.
const NUMBER = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;

export const isNumeric = (field: string) => (NUMERIC_FIELDS as readonly string[]).includes(field);
const isText = (field: string) => (TEXT_FIELDS as readonly string[]).includes(field);
export const isTag = (field: string) => (TAG_FIELDS as readonly string[]).includes(field);

/** The operators a field takes. */
function operatorsOf(field: string): readonly string[] {
  if (isNumeric(field)) return NUMERIC_OPERATORS;
  return isTag(field) ? TAG_OPERATORS : TEXT_OPERATORS;
}

function ruleErrors(rule: Rule, path: string): ErrorDetail[] {
  const detail = (part: string, message: string): ErrorDetail => ({ field: `${path}.${part}`, in: 'body', message });
  if (!isNumeric(rule.field) && !isText(rule.field) && !isTag(rule.field)) {
    return [detail('field', `must be one of: ${CONDITION_FIELDS.join(', ')}`)];
  }
  const operators = operatorsOf(rule.field);
  if (!operators.includes(rule.operator)) return [detail('operator', `must be one of ${operators.join(', ')} for field ${rule.field}`)];
  if (isNumeric(rule.field) && !(NUMBER.test(rule.value) && Number.isFinite(Number(rule.value)))) {
    return [detail('value', `must be a number (as a string) for field ${rule.field}`)];
  }
  return [];
}

/** One detail per wrong condition (`conditions[i].field|operator|value`), none when all are valid. */
export function conditionErrors(rules: readonly Rule[], field = 'conditions'): ErrorDetail[] {
  return rules.flatMap((rule, index) => ruleErrors(rule, `${field}[${index}]`));
}

/** Whether `conditionErrors` accepts the rule. */
export const isValidRule = (rule: Rule): boolean => ruleErrors(rule, 'rule').length === 0;
