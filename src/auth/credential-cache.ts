import type { Database, Listener } from '../db/index.js';
import type { Auth } from '../http/index.js';

/** The channel migrations/0010 announces credential changes on; payloads are tags (below) or `*`. */
export const CREDENTIALS_CHANNEL = 'storefront_credentials';
const MAX_ENTRIES = 10_000;
/** How long a revoking request waits for its own announcement to come back (it takes a millisecond or two). */
const ECHO_WAIT_MS = 1000;

/** The tag of a cached credential, as the triggers of migrations/0010 name it. */
export const adminTag = (storeId: string, adminId: string) => `admin:${storeId}:${adminId}`;

interface Entry {
  tag: string;
  auth: Auth;
}

/**
 * The credentials this process has found valid (API keys by hash, admins of access tokens by tag), trusted
 * without a database round trip for as long as the process hears every credential change (docs/decisions.md,
 * "Credential cache"). A change drops its entry when it is announced; a gap in hearing (the listener down
 * or just reconnected) drops them all, and while the listener is down nothing is served from here.
 *
 * A lookup that raced with a change must not store what it read before the change: `put` takes the
 * generation read before the lookup, and any change since (any forget or clear) makes it a no-op.
 */
export class CredentialCache {
  private readonly entries = new Map<string, Entry>();
  private readonly keyOfTag = new Map<string, string>();
  private readonly echoes = new Map<string, Set<() => void>>();
  private current = 0;

  constructor(private readonly live: () => boolean) {}

  get generation(): number {
    return this.current;
  }

  get(key: string): Auth | undefined {
    return this.live() ? this.entries.get(key)?.auth : undefined;
  }

  put(key: string, tag: string, auth: Auth, generation: number): void {
    if (generation !== this.current || !this.live()) return;
    if (this.entries.size >= MAX_ENTRIES) {
      const oldest = this.entries.entries().next().value;
      if (oldest) this.drop(oldest[0], oldest[1].tag);
    }
    this.entries.set(key, { tag, auth });
    this.keyOfTag.set(tag, key);
  }

  /** A credential changed: its entry goes, and no lookup under way may store what it read. */
  forget(tag: string): void {
    this.current++;
    const key = this.keyOfTag.get(tag);
    if (key !== undefined) this.drop(key, tag);
  }

  /** The database announced a change (a tag, or `*` for all). */
  announced(payload: string): void {
    if (payload === '*') {
      this.clear();
      return;
    }
    this.forget(payload);
    this.settleEchoes(payload);
  }

  /** Changes may have been missed: everything goes. */
  clear(): void {
    this.current++;
    this.entries.clear();
    this.keyOfTag.clear();
    for (const tag of [...this.echoes.keys()]) this.settleEchoes(tag);
  }

  /**
   * Runs a write that revokes the credential `tag` (its transaction committed when `write` resolves), then
   * drops the entry here and waits until this process's listener has heard the announcement: every other
   * listening process was told in the same instant by PostgreSQL, so the revocation is in force everywhere
   * before the response goes out. `write` resolving to undefined means nothing was revoked now (a replay).
   */
  async revoking<T>(tag: string, write: () => Promise<T>): Promise<T> {
    let heard!: () => void;
    const echo = new Promise<void>((resolve) => {
      heard = resolve;
    });
    const waiting = this.echoes.get(tag) ?? new Set();
    waiting.add(heard);
    this.echoes.set(tag, waiting);
    try {
      const result = await write();
      if (result !== undefined) {
        this.forget(tag);
        if (this.live()) await Promise.race([echo, new Promise((resolve) => setTimeout(resolve, ECHO_WAIT_MS).unref())]);
      }
      return result;
    } finally {
      waiting.delete(heard);
      if (waiting.size === 0 && this.echoes.get(tag) === waiting) this.echoes.delete(tag);
    }
  }

  private drop(key: string, tag: string): void {
    this.entries.delete(key);
    if (this.keyOfTag.get(tag) === key) this.keyOfTag.delete(tag);
  }

  private settleEchoes(tag: string): void {
    const waiting = this.echoes.get(tag);
    if (!waiting) return;
    this.echoes.delete(tag);
    for (const heard of waiting) heard();
  }
}

/** The cache of an app, kept current by the database's announcements; `close` stops listening. */
export function watchCredentials(database: Pick<Database, 'listen'>): {
  cache: CredentialCache;
  /** resolves once listening, or after `ms` (the app serves either way: without the cache until then) */
  settled(ms: number): Promise<void>;
  close(): Promise<void>;
} {
  let listener: Listener | null = null;
  const cache = new CredentialCache(() => listener?.live() ?? false);
  listener = database.listen(CREDENTIALS_CHANNEL, {
    message: (payload) => cache.announced(payload),
    reset: () => cache.clear(),
  });
  const settled = async (ms: number) => {
    for (const deadline = Date.now() + ms; !listener.live() && Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  return { cache, settled, close: () => listener.close() };
}
