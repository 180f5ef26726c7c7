import { randomBytes } from 'node:crypto';
import { buildApp } from '../../src/app.js';
import { issueAccessToken } from '../../src/auth/tokens.js';
import type { Config } from '../../src/config.js';
import type { Database } from '../../src/db/database.js';
import type { App } from '../../src/http/context.js';
import { newId } from '../../src/shared/ids.js';
import { hashPassword } from '../../src/shared/passwords.js';
import { createStore } from '../../src/stores/stores.service.js';
import { openTestDatabase, testConfig } from '../helpers.js';

/** Test helpers for apps built by hand (several on one database, or on a wrapped database handle). */

export const ADMIN_PASSWORD = 'long-secret-password';
let adminHash: Promise<string> | null = null;

export interface AppSetup {
  database: Database;
  config: Config;
  /** closes every app started from it, the database, and removes the data dir */
  close(): Promise<void>;
  start(options?: { redisPrefix?: string; database?: Database }): Promise<App>;
}

export async function openAppSetup(overrides: Partial<Config> = {}): Promise<AppSetup> {
  const { database, dataDir, cleanup } = await openTestDatabase();
  const config = testConfig(dataDir, overrides);
  const apps: App[] = [];
  return {
    database,
    config,
    async start(options = {}) {
      const redisPrefix = options.redisPrefix ?? `storefront-test:${randomBytes(6).toString('hex')}:`;
      const app = await buildApp({ config, database: options.database ?? database, redisPrefix });
      apps.push(app);
      await app.ready();
      return app;
    },
    async close() {
      for (const app of apps) await app.close();
      await database.close();
      cleanup();
    },
  };
}

/** A new store with one admin (password ADMIN_PASSWORD) and an access token. */
export async function newAdmin(setup: AppSetup) {
  const slug = `s-${randomBytes(5).toString('hex')}`;
  const store = await createStore(setup.database.db, { slug, name: slug });
  const adminId = newId();
  const email = `owner@${slug}.test`;
  adminHash ??= hashPassword(ADMIN_PASSWORD);
  await setup.database.db
    .insertInto('admins')
    .values({ store_id: store.id, id: adminId, email, password_hash: await adminHash })
    .execute();
  const token = await issueAccessToken({ storeId: store.id, adminId }, setup.config.jwtSecret, setup.config.tokenTtl);
  return { storeId: store.id, adminId, slug, email, token };
}
