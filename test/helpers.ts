import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, inject } from 'vitest';
import { appAfterWork, type BuildOptions, buildApp } from '../src/app.js';
import { issueAccessToken } from '../src/auth/tokens.js';
import { type Config, loadConfig } from '../src/config.js';
import { type Database, openDatabase } from '../src/db/database.js';
import type { StatementObserver } from '../src/db/index.js';
import type { App } from '../src/http/context.js';
import { newId } from '../src/shared/ids.js';
import type { AfterWork } from '../src/shared/index.js';
import { hashPassword } from '../src/shared/passwords.js';
import { createStore } from '../src/stores/index.js';

export const engine = (process.env.TEST_ENGINE ?? 'pglite') as 'pglite' | 'postgres';

export interface TestStore {
  id: string;
  slug: string;
  email: string;
  password: string;
  token: string;
}

// biome-ignore lint/suspicious/noExplicitAny: response bodies are asserted field by field in tests
export interface Reply<T = any> {
  status: number;
  body: T;
  headers: LightMyRequestResponse['headers'];
}

export interface TestContext {
  app: App;
  database: Database;
  config: Config;
  /** the app's after-work (src/shared/after-work.ts): what a test that writes past the write door appends through */
  afterWork: AfterWork;
  /** a new store with one admin and an access token: every test makes its own */
  newStore(): Promise<TestStore>;
  /** a request as the store's admin (or with `credential` as the bearer) */
  // biome-ignore lint/suspicious/noExplicitAny: see Reply
  call<T = any>(
    store: TestStore | string | null,
    method: string,
    url: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<Reply<T>>;
  close(): Promise<void>;
}

/** Paths that are not under /api/v1: the API prefix itself, the console, media, docs, health. */
const OUTSIDE_API = /^\/(api\/v1|console|media|docs|healthz|readyz)(\/|\?|$)/;

export function uniqueSlug(prefix = 's'): string {
  return `${prefix}-${randomBytes(5).toString('hex')}`;
}

/**
 * This test file's own PostgreSQL database: a copy of the run's migrated template, made before the file
 * runs and dropped after it (test/support/file-database.ts, the postgres project's setup file).
 */
export function testDatabaseUrl(): string {
  const url = process.env.TEST_FILE_DATABASE_URL;
  if (!url) throw new Error('this file has no PostgreSQL database: run it in the postgres project, with TEST_DATABASE_URL set');
  return url;
}

/** A fresh data dir with the run's migrated template copied in (PGlite), or the file's database (PostgreSQL). */
export async function openTestDatabase(
  observeStatement?: StatementObserver,
): Promise<{ database: Database; dataDir: string; cleanup: () => void }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'storefront-data-'));
  if (engine === 'pglite') cpSync(inject('pgliteTemplate'), dataDir, { recursive: true });
  // A test's burst of requests may queue for the pool's connections for longer than the server's 5 s
  // when the machine is busy: a test asserts what the server answers, not how fast this machine is.
  const database = await openDatabase({
    databaseUrl: engine === 'postgres' ? testDatabaseUrl() : null,
    dataDir,
    connectTimeoutMs: 60_000,
    observeStatement,
  });
  return { database, dataDir, cleanup: () => rmSync(dataDir, { recursive: true, force: true }) };
}

/** A file's (or describe block's) own database, opened before its tests and closed after them: read `.database` in a test. */
export function useTestDatabase(): { readonly database: Database } {
  const opened = {} as Awaited<ReturnType<typeof openTestDatabase>>;
  beforeAll(async () => {
    Object.assign(opened, await openTestDatabase());
  });
  afterAll(async () => {
    await opened.database.close();
    opened.cleanup();
  });
  return opened;
}

export function testConfig(dataDir: string, overrides: Partial<Config> = {}): Config {
  const base = loadConfig({ STOREFRONT_DATA_DIR: dataDir, STOREFRONT_JWT_SECRET: randomBytes(32).toString('hex'), LOG_LEVEL: 'silent' });
  // No webhook worker unless a test asks for one: another app on the file's database (a file may build
  // several, with their own retry schedules and address rules) would otherwise claim that test's
  // deliveries. No job runner either: tests run their store's jobs with runStoreJobs, when they choose.
  return {
    ...base,
    databaseUrl: engine === 'postgres' ? testDatabaseUrl() : null,
    rateLimit: 0,
    publicUrl: 'http://storefront.test',
    webhookWorker: false,
    jobRunner: false,
    // No Requests log either: its timed batches would land among the statements other tests count.
    // src/request-log's tests turn it on.
    requestLog: false,
    ...overrides,
  };
}

/** An observer that keeps every statement's text in `into`, in the order sent (for tests that count statements). */
export function recordStatements(into: string[]): StatementObserver {
  return (text) => {
    into.push(text);
    return undefined;
  };
}

/**
 * `observeStatement` sees every statement the app's database sends (src/db/statements/observed.ts); `build`: more
 * of buildApp's options (a test's own LazySchemas, say).
 */
export async function setupTestApp(
  overrides: Partial<Config> = {},
  observeStatement?: StatementObserver,
  build: Pick<BuildOptions, 'schemas'> = {},
): Promise<TestContext> {
  const { database, dataDir, cleanup } = await openTestDatabase(observeStatement);
  const config = testConfig(dataDir, overrides);
  const afterWork = appAfterWork();
  const redisPrefix = `storefront-test:${inject('runId')}:${randomBytes(4).toString('hex')}:`;
  const app = await buildApp({ config, database, redisPrefix, afterWork, ...build });
  await app.ready();

  // One password for every store of this app, hashed once: scrypt per store cost ~175 hashes a run, and
  // tests call with tokens; the password is there for the tests of POST /auth.
  const password = `pw-${randomBytes(8).toString('hex')}`;
  let passwordHash: Promise<string> | null = null;
  const newStore = async (): Promise<TestStore> => {
    const slug = uniqueSlug();
    const email = `admin@${slug}.test`;
    passwordHash ??= hashPassword(password);
    const store = await createStore(database.db, { slug, name: `Store ${slug}` });
    const adminId = newId();
    await database.db
      .insertInto('admins')
      .values({ store_id: store.id, id: adminId, email, password_hash: await passwordHash })
      .execute();
    const token = await issueAccessToken({ storeId: store.id, adminId }, config.jwtSecret, config.tokenTtl);
    return { id: store.id, slug, email, password, token };
  };

  const call: TestContext['call'] = async (store, method, url, body, headers = {}) => {
    const credential = typeof store === 'string' ? store : store?.token;
    const response = await app.inject({
      method: method as 'GET',
      url: OUTSIDE_API.test(url) ? url : `/api/v1${url}`,
      headers: { ...(credential ? { authorization: `Bearer ${credential}` } : {}), ...headers },
      ...(body === undefined ? {} : { payload: body as object }),
    });
    const text = response.body;
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    return { status: response.statusCode, body: parsed as never, headers: response.headers };
  };

  return {
    app,
    database,
    config,
    afterWork,
    newStore,
    call,
    close: async () => {
      await app.close();
      await database.close();
      cleanup();
    },
  };
}

/** POSTs `body` to `path` as the store's admin, asserts 201 (the body in the message otherwise) and returns its data. */
export async function postCreated(t: TestContext, store: TestStore, path: string, body: object) {
  const res = await t.call(store, 'POST', path, body);
  if (res.status !== 201) throw new Error(`expected 201 from POST ${path}, got ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** Asserts the error envelope of CONTRACT §3 and returns its error. */
export function expectError(reply: Reply, status: number, code: string) {
  if (reply.status !== status || reply.body?.error?.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${reply.status} ${JSON.stringify(reply.body)}`);
  }
  if (reply.body.success !== false || !Array.isArray(reply.body.error.details) || typeof reply.body.error.message !== 'string') {
    throw new Error(`malformed error envelope: ${JSON.stringify(reply.body)}`);
  }
  return reply.body.error as { code: string; message: string; details: { field: string; in: string; message: string }[] };
}
