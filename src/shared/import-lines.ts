import { isDeepStrictEqual } from 'node:util';

/**
 * Helpers for import lines (an NDJSON line is the body POST would take, upserted by the resource's key).
 * Kept apart from the HTTP layer: the import engine calls the resources' line handlers inside its own
 * batch transaction.
 */

/** What an import ignores in every line: the record's id and the timestamps GET shows (the service sets them). */
export const IGNORED_IN_LINES = ['id', 'createdAt', 'updatedAt'] as const;

/**
 * The line without the top-level properties an import ignores, so a record exactly as GET returns it is a
 * valid line. Anything but a plain object is returned as it is (the body's schema then refuses it).
 */
export function withoutIgnored(line: unknown, ignored: readonly string[] = IGNORED_IN_LINES): unknown {
  if (line === null || typeof line !== 'object' || Array.isArray(line)) return line;
  const kept = { ...(line as Record<string, unknown>) };
  for (const key of ignored) delete kept[key];
  return kept;
}

/**
 * Whether setting `changes` (the validated fields an update would set) on `current` (the record as GET
 * returns it) would leave every field as it is: each supplied value deep-equals the shown one. Strict on
 * purpose: a value the service would normalize (a title with spaces around it) counts as a change, so
 * "unchanged" is never claimed for a line that would change something.
 */
export function changesNothing(changes: object, current: object): boolean {
  const shown = current as Record<string, unknown>;
  return Object.entries(changes).every(
    ([key, value]) => value === undefined || (Object.hasOwn(shown, key) && isDeepStrictEqual(value, shown[key])),
  );
}
