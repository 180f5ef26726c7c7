import { randomBytes } from 'node:crypto';
import { issueAccessToken } from '../../src/auth/tokens.js';
import { openDatabase } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';
import { createAdmin, createStore } from '../../src/stores/stores.service.js';

/**
 * A store, its admin and an access token in a PostgreSQL database, made directly through the data layer; with
 * `databaseUrl` empty, in the embedded database of `dataDir` (before a server holds it).
 */
export async function seedStore(databaseUrl: string, jwtSecret: string, dataDir = ''): Promise<{ storeId: string; token: string }> {
  const [seeded] = await seedStores(1, databaseUrl, jwtSecret, dataDir);
  return seeded;
}

/** `count` stores as seedStore makes one, the database opened once (on the embedded engine each open boots PGlite). */
export async function seedStores(
  count: number,
  databaseUrl: string,
  jwtSecret: string,
  dataDir = '',
): Promise<{ storeId: string; token: string }[]> {
  const database = await openDatabase({ databaseUrl, dataDir, poolSize: 2 });
  try {
    await migrate(database.db);
    const seeded: { storeId: string; token: string }[] = [];
    for (let n = 0; n < count; n++) {
      const slug = `s-${randomBytes(5).toString('hex')}`;
      const store = await createStore(database.db, { slug, name: `Store ${slug}` });
      const admin = await createAdmin(database.db, store.id, {
        email: `admin@${slug}.test`,
        password: `pw-${randomBytes(8).toString('hex')}`,
      });
      seeded.push({ storeId: store.id, token: await issueAccessToken({ storeId: store.id, adminId: admin.id }, jwtSecret, 3600) });
    }
    return seeded;
  } finally {
    await database.close();
  }
}

export interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: bodies are asserted field by field
  body: any;
  headers: Headers;
  ms: number;
}

/** One request to /api/v1 (or an absolute path like /readyz); network failures become status 0. */
export async function request(base: string, token: string, method: string, path: string, body?: unknown): Promise<Answer> {
  const started = Date.now();
  const url = path.startsWith('/api/') || path.startsWith('/readyz') || path.startsWith('/healthz') ? path : `/api/v1${path}`;
  try {
    const response = await fetch(`${base}${url}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers, ms: Date.now() - started };
  } catch {
    return { status: 0, body: null, headers: new Headers(), ms: Date.now() - started };
  }
}

/** A product whose two options make six variants: a write of several rows that must land whole or not at all. */
export function productBody(n: number) {
  return {
    title: `Outage product ${n}`,
    price: 10 + n,
    options: [
      { name: 'Size', values: ['S', 'M', 'L'] },
      { name: 'Color', values: ['Red', 'Blue'] },
    ],
  };
}

/** Polls until `check` holds or `ms` pass. */
export async function eventually(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}

/**
 * Whether processes share one rate limit: three requests alternating between the first two bases count
 * down one by one. A window may roll over between two requests (it resets the count), and on a loaded
 * machine a Redis command slower than its timeout falls back to the process's own count by design: one clean
 * run of three is proof (separate counts can never give one), so it tries a few times, `pauseMs` apart.
 */
export async function sharesRateLimit(bases: string[], token: string, pauseMs: number): Promise<boolean> {
  for (let attempt = 0; attempt < 6; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
    const remaining: number[] = [];
    for (const base of [bases[0], bases[1], bases[0]]) {
      const answer = await request(base, token, 'GET', '/attribute-sets');
      remaining.push(Number(answer.headers.get('ratelimit-remaining')));
    }
    if (remaining[1] === remaining[0] - 1 && remaining[2] === remaining[1] - 1) return true;
  }
  return false;
}
