import type { Db } from '../db/index.js';
import type { AnswerObserver } from '../http/index.js';
import { type KeyUse, updateLastUsed } from './api-keys.sql.js';

export interface LastUsedOptions {
  /** how often the noted uses are written: each key at most once in this time (default a minute) */
  flushMs: number;
}

export const LAST_USED_DEFAULTS: LastUsedOptions = { flushMs: 60_000 };

interface LastUsedLog {
  warn(object: object, message: string): void;
}

export interface KeyUsage {
  /** the observer app.ts hands to observeAnswers: notes the time of every answer an API key named the store of */
  observe: AnswerObserver;
  /** writes the uses noted so far, in one UPDATE (and waits for one under way) */
  flush(): Promise<void>;
  /** stops the timer and writes what is noted: the graceful stop */
  close(): Promise<void>;
}

/**
 * Each API key's last use, noted in memory by this process and written once a `flushMs` for all the keys
 * used meanwhile, in one UPDATE (docs/decisions.md, "API keys' last use"): a request never waits on it, and
 * a key used a thousand times a minute costs one row update a minute per process. What a failed write held
 * is logged and forgotten, like the Requests log's batches: a later use writes it again. Every process
 * writes its own; the newest time wins in the row.
 */
export function startKeyUsage(db: Db, log: LastUsedLog, options: Partial<LastUsedOptions> = {}): KeyUsage {
  const { flushMs } = { ...LAST_USED_DEFAULTS, ...options };
  // store id and key id → the newest use noted since the last write; at most one entry per live key
  let noted = new Map<string, KeyUse>();
  let writing: Promise<void> = Promise.resolve();

  async function write(uses: KeyUse[]): Promise<void> {
    try {
      await updateLastUsed(db, uses);
    } catch (error) {
      log.warn({ err: error, keys: uses.length }, "API keys' last use: writing failed, these uses are not recorded");
    }
  }

  function flush(): Promise<void> {
    // one write at a time: the next takes what was noted meanwhile once the one under way is done
    writing = writing.then(() => {
      if (noted.size === 0) return;
      const uses = [...noted.values()];
      noted = new Map();
      return write(uses);
    });
    return writing;
  }

  const timer = setInterval(() => void flush(), flushMs);
  timer.unref();

  return {
    observe({ auth, at }) {
      if (auth?.keyId === undefined) return;
      const id = `${auth.storeId}\u0000${auth.keyId}`;
      const known = noted.get(id);
      if (known) known.at = at;
      else noted.set(id, { storeId: auth.storeId, id: auth.keyId, at });
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
