import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { type Db, withTx } from '../db/index.js';
import { deleteSession, deleteStaleSessions, insertSession, type SessionRow, selectLiveSession } from './sessions.sql.js';

/**
 * Console sessions (docs/decisions.md, "Console sessions"): the cookie holds `<store id>.<secret>`; the
 * database holds the secret's SHA-256 only. Every request looks the session up with its admin, so a
 * sign-out, a deleted admin or a deleted store ends it on every process at once (no cache to forget).
 */

/** who signed in: what the sign-in shared with POST /auth (src/auth) answers */
export interface AdminClaims {
  storeId: string;
  adminId: string;
}

export const SESSION_COOKIE = 'sf_console';
/** an admin signed in on more devices than this loses the oldest sessions first */
const SESSIONS_PER_ADMIN = 20;
const COOKIE_VALUE = /^([0-9a-f]{24})\.([A-Za-z0-9_-]{43})$/;

export interface ConsoleSession extends SessionRow {
  secretHash: string;
  /** the CSRF token of this session: every POST form carries it */
  csrf: string;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The CSRF token is derived from the session (HMAC with the deployment's secret), so it needs no storage. */
function csrfOf(jwtSecret: string, secretHash: string): string {
  return createHmac('sha256', jwtSecret).update(`console-csrf:${secretHash}`).digest('base64url');
}

export function csrfMatches(session: ConsoleSession, given: unknown): boolean {
  if (typeof given !== 'string') return false;
  const expected = Buffer.from(session.csrf);
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A new session (a new secret at every sign-in); answers the cookie's value. */
export async function startSession(db: Db, claims: AdminClaims, hours: number): Promise<string> {
  const secret = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + hours * 3_600_000);
  await withTx(db, async (tx) => {
    await insertSession(tx, { store_id: claims.storeId, admin_id: claims.adminId, secret_hash: sha256(secret), expires_at: expiresAt });
    await deleteStaleSessions(tx, claims.storeId, claims.adminId, SESSIONS_PER_ADMIN);
  });
  return `${claims.storeId}.${secret}`;
}

/** The live session a cookie names, or null (malformed, unknown, expired, signed out, admin or store gone). */
export async function findSession(db: Db, jwtSecret: string, cookie: string | undefined): Promise<ConsoleSession | null> {
  const match = cookie ? COOKIE_VALUE.exec(cookie) : null;
  if (!match) return null;
  const secretHash = sha256(match[2]);
  const row = await selectLiveSession(db, match[1], secretHash);
  return row ? { ...row, secretHash, csrf: csrfOf(jwtSecret, secretHash) } : null;
}

export function endSession(db: Db, session: ConsoleSession): Promise<void> {
  return deleteSession(db, session.storeId, session.secretHash);
}
