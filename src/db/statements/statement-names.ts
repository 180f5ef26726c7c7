import { createHash } from 'node:crypto';
import { GENERIC_PLAN_MARK } from './generic-plan.js';

/**
 * Which statements get a name and are prepared once per session (docs/decisions.md, "Named prepared statements"),
 * shared by both engines: PostgreSQL's pool (prepared.ts) and PGlite's worker (pglite-statements.ts).
 * Statements without parameters (BEGIN, COMMIT, migrations) are never named; a statement whose text
 * varies with a list's length (`in ($1, $2, …)`) stays unnamed, or each length would be prepared on every
 * session; so does a pattern match (`like`, `ilike`): after five runs PostgreSQL may settle on a generic
 * plan, and a plan made without the pattern cannot know whether the trigram index pays; unless the statement
 * is marked for its generic plan (a search whose indexes pay for any term: ListSpec.searchPlan in src/reads).
 */

/** At most this many names per process, so a process never holds more than this many plans per session. */
const MAX_NAMES = 200;
/** `in ($1, $2` : a list of several parameters, whose length differs from call to call. */
const LIST = /\bin \(\$\d+, \$/i;
/** A pattern: named only when marked for its generic plan (generic-plan.ts), whose plan is declared not to depend on it. */
const PATTERN = /\bi?like\b/i;
/** "cached plan must not change result type": a migration changed a table under a prepared `select *`. */
export const PLAN_CHANGED = '0A000';

/** Names handed out by one process (a PGlite worker is a process of its own here: its own map). */
export class StatementNames {
  private readonly names = new Map<string, string | null>();

  /** The statement's name, or undefined when it runs unnamed (parsed and planned on every run). */
  nameOf(text: string): string | undefined {
    const known = this.names.get(text);
    if (known !== undefined) return known ?? undefined;
    if (this.names.size >= MAX_NAMES || LIST.test(text) || (PATTERN.test(text) && !text.includes(GENERIC_PLAN_MARK))) return undefined;
    const name = `sf_${createHash('sha1').update(text).digest('base64url')}`;
    this.names.set(text, name);
    return name;
  }

  /** This text is never named again in this process (its prepared plan no longer fits the table). */
  forget(text: string): void {
    this.names.set(text, null);
  }
}
