import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { type Expression, type RawBuilder, type SqlBool, sql } from 'kysely';
import { invalidField } from '../errors.js';

/**
 * The keyset cursor of every list (CONTRACT §9.3): where the previous page ended (its last row's sort value,
 * as PostgreSQL's own text of it, and id) and a signature binding it to the walk it was issued for — the
 * list's path with its ids, the sort, every filter and the limit. A cursor used on another walk is a 400, so
 * a sync job never silently continues something else. The signature is an HMAC keyed with the server's
 * secret: a cursor edited or made up by a client is a 400 too (an unkeyed hash could be recomputed). The values only ever travel as statement parameters; one
 * forged to a value of the wrong type is refused by PostgreSQL and answered as a bad cursor (list.ts).
 */
export interface Position {
  /** the last row's sort value as text (null when that row's value is null) */
  key: string | null;
  id: string;
}

interface CursorBody {
  k: string | null;
  i: string;
  h: string;
}

// A record's id, or two (an inventory level's tie-breaker is its item's id and its location's).
const ID = /^[0-9a-f]{24}(?:[0-9a-f]{24})?$/;
const MAX_KEY_LENGTH = 2000;

/**
 * The key cursors are signed with. Every process of a deployment must sign alike (a cursor issued by one is
 * followed on another), so the app sets it from its configured secret when it is built (`useCursorSecret`);
 * until then, a key of this process only. A module-level key rather than a parameter of every list: the
 * lists of eleven resources would otherwise each carry the secret down to here.
 */
let cursorKey: Buffer = randomBytes(32);

/** Signs cursors with a key derived from the server's secret (its own key: the secret signs tokens too). */
export function useCursorSecret(secret: string): void {
  cursorKey = createHmac('sha256', secret).update('storefront list cursors').digest();
}

const SIGNATURE_LENGTH = 22;

function signatureOf(binding: string, position: Position): string {
  return createHmac('sha256', cursorKey)
    .update(JSON.stringify([binding, position.key, position.id]))
    .digest('base64url')
    .slice(0, SIGNATURE_LENGTH);
}

function signedBy(signature: string, expected: string): boolean {
  return signature.length === expected.length && timingSafeEqual(Buffer.from(signature), Buffer.from(expected));
}

export function encodeCursor(position: Position, binding: string): string {
  const body: CursorBody = { k: position.key, i: position.id, h: signatureOf(binding, position) };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

/** `field`: the query parameter that carried it (`before` for runListPage's previous page), named by the 400. */
export function decodeCursor(cursor: string, binding: string, field: 'cursor' | 'before' = 'cursor'): Position {
  const body = parse(cursor);
  if (!body) throw badCursor('is not a cursor this list issued', field);
  const position = { key: body.k, id: body.i };
  if (!signedBy(body.h, signatureOf(binding, position))) {
    throw badCursor(
      'was not issued for this list, sort, filter and limit (or was altered): pass it unchanged, with the same path and query as the request that returned it',
      field,
    );
  }
  return position;
}

export const badCursor = (message: string, field: 'cursor' | 'before' = 'cursor') => invalidField(field, message, 'query');

function parse(cursor: string): CursorBody | null {
  try {
    const body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<CursorBody>;
    const valid =
      typeof body === 'object' &&
      body !== null &&
      (body.k === null || (typeof body.k === 'string' && body.k.length <= MAX_KEY_LENGTH)) &&
      typeof body.i === 'string' &&
      ID.test(body.i) &&
      typeof body.h === 'string';
    return valid ? (body as CursorBody) : null;
  } catch {
    return null;
  }
}

/** The columns a keyset walks: the sort expression, the id breaking its ties, the direction, and whether the sort value may be null. */
export interface Keyset {
  key: RawBuilder<unknown>;
  id: RawBuilder<unknown>;
  descending: boolean;
  nullable: boolean;
}

/**
 * The rows after `last` in the order `key dir, id dir` (PostgreSQL's default null placement, which the
 * ORDER BY uses too: nulls last ascending, first descending). A non-null sort is one row comparison, which
 * the `(store_id, key, id)` index answers as a range: the cost does not depend on how deep the page is.
 */
export function rowsAfter(keyset: Keyset, last: Position): Expression<SqlBool> {
  const { key, id, descending, nullable } = keyset;
  const beyond = descending ? sql`<` : sql`>`;
  if (last.key === null) {
    // the walk is inside the nulls: the rest of them by id, then (descending) every non-null row
    const nullsOn = sql<SqlBool>`(${key} IS NULL AND ${id} ${beyond} ${last.id})`;
    return descending ? sql<SqlBool>`(${nullsOn} OR ${key} IS NOT NULL)` : nullsOn;
  }
  const past = sql<SqlBool>`((${key}, ${id}) ${beyond} (${last.key}, ${last.id}))`;
  // ascending, the nulls come after every value; descending they came first, already walked
  return nullable && !descending ? sql<SqlBool>`(${past} OR ${key} IS NULL)` : past;
}
