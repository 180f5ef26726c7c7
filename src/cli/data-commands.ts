import { join, resolve } from 'node:path';
import { createApiKey, listApiKeys, revokeApiKey } from '../api-keys/index.js';
import { type Config, loadConfig } from '../config.js';
import { rebuildCustomerDocuments } from '../customers/index.js';
import { type Database, DataDirLockedError, type Db, openMigratedDatabase, withTx } from '../db/index.js';
import { AppError, fromDatabaseError } from '../errors.js';
import { createMediaStore, mediaBackendOf, migrateMediaDir } from '../media/index.js';
import { rebuildProductDocuments } from '../products/index.js';
import { ALL_SCOPES } from '../shared/index.js';
import { createAdmin, createStore, listAdmins, listStores, requireStore, updateStore } from '../stores/index.js';
import { CliError } from './cli-error.js';
import type { OptionValues } from './command-table.js';

/** The data commands of the CLI (command-table.ts lists them): open the configured database, act, close. */

async function withDatabase<T>(work: (database: Database, config: Config) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const database = await openMigratedDatabase(config);
  try {
    return await work(database, config);
  } finally {
    await database.close();
  }
}

const text = (values: OptionValues, name: string) => String(values[name] ?? '');
const optionalText = (values: OptionValues, name: string) => (values[name] === undefined ? undefined : String(values[name]));

/** A unique violation said in the user's words; anything else passes through. */
async function unique<T>(work: Promise<T>, field: string, message: string): Promise<T> {
  try {
    return await work;
  } catch (error) {
    const mapped = error instanceof AppError ? error : fromDatabaseError(error as Error);
    if (mapped?.code === 'DUPLICATE_VALUE' && mapped.details[0]?.field === field) throw new CliError(message);
    throw error;
  }
}

export function migrate() {
  return withDatabase(async (database) => ({ migrated: true, engine: database.engine }));
}

export function createStoreWithAdmin(values: OptionValues) {
  const slug = text(values, 'slug');
  return withDatabase((database) =>
    unique(
      withTx(database.db, async (trx) => {
        const currency = optionalText(values, 'currency');
        const store = await createStore(trx, { slug, name: text(values, 'name'), currency });
        const admin = await createAdmin(trx, store.id, { email: text(values, 'admin-email'), password: text(values, 'admin-password') });
        return { store, admin };
      }),
      'slug',
      `a store with slug '${slug}' already exists`,
    ),
  );
}

export function updateStoreSettings(values: OptionValues) {
  const changes = { name: optionalText(values, 'name'), currency: optionalText(values, 'currency') };
  return withDatabase(async ({ db }) => ({ store: await updateStore(db, text(values, 'slug'), changes) }));
}

export function listAllStores() {
  return withDatabase((database) => listStores(database.db));
}

export function addAdmin(values: OptionValues) {
  const email = text(values, 'email');
  return withDatabase(async ({ db }) => {
    const store = await requireStore(db, text(values, 'store'));
    const admin = createAdmin(db, store.id, { email, password: text(values, 'password') });
    return { admin: await unique(admin, 'email', `store '${store.slug}' already has an admin with email '${email.trim().toLowerCase()}'`) };
  });
}

export function listStoreAdmins(values: OptionValues) {
  return withDatabase(async ({ db }) => {
    const slug = values.store;
    return listAdmins(db, typeof slug === 'string' ? (await requireStore(db, slug)).id : null);
  });
}

function parseScopes(raw: string | undefined): string[] {
  const scopes = (raw ?? '*')
    .split(',')
    .map((scope) => scope.trim())
    .filter(Boolean);
  const unknown = scopes.filter((scope) => !ALL_SCOPES.includes(scope));
  if (unknown.length || scopes.length === 0) throw new CliError(`unknown scope ${unknown.join(', ')}; allowed: ${ALL_SCOPES.join(', ')}`);
  return scopes;
}

export function addApiKey(values: OptionValues) {
  const scopes = parseScopes(values.scopes as string | undefined);
  return withDatabase(async ({ db }) => {
    const store = await requireStore(db, text(values, 'store'));
    return createApiKey(db, store.id, { name: text(values, 'name'), scopes });
  });
}

export function listStoreApiKeys(values: OptionValues) {
  return withDatabase(async ({ db }) => listApiKeys(db, (await requireStore(db, text(values, 'store'))).id));
}

export function revokeStoreApiKey(values: OptionValues) {
  return withDatabase(async ({ db }) => revokeApiKey(db, (await requireStore(db, text(values, 'store'))).id, text(values, 'id')));
}

const firstLine = (message: string) => message.split('\n', 1)[0];

/** One line for any failure: never a stack trace or SQL. */
export function describeError(error: unknown): string {
  if (error instanceof DataDirLockedError) return error.message;
  const appError = error instanceof AppError ? error : fromDatabaseError(error as Error);
  if (appError?.status === 503 && !(error instanceof AppError)) {
    const reason = (error as { code?: string }).code || firstLine((error as Error).message);
    return `cannot reach the database (${reason}): check DATABASE_URL and that PostgreSQL is running`;
  }
  if (appError) {
    const detail = appError.details[0];
    return detail ? `${appError.message}: ${detail.field} ${detail.message}` : appError.message;
  }
  return `unexpected error: ${firstLine(error instanceof Error ? error.message : String(error))}`;
}

/** Stored product documents for the store's (or every store's) products lacking a current one. */
export const rebuildDocuments = (values: OptionValues) => rebuildEachStore(values, rebuildProductDocuments);

/** Stored customer documents for the store's (or every store's) customers lacking a current one. */
export const rebuildCustomerDocumentsOf = (values: OptionValues) => rebuildEachStore(values, rebuildCustomerDocuments);

function rebuildEachStore(values: OptionValues, rebuild: (db: Db, storeId: string) => Promise<number>) {
  return withDatabase(async ({ db }) => {
    const stores = values.store === undefined ? await listStores(db) : [await requireStore(db, text(values, 'store'))];
    let documents = 0;
    for (const store of stores) documents += await rebuild(db, store.id);
    return { stores: stores.length, documents };
  });
}

/** Moves media files of a directory (default: the data dir's) into the configured store (the database, or STOREFRONT_MEDIA_DIR). */
export function migrateMedia(values: OptionValues) {
  return withDatabase(async (database, config) => {
    const from = resolve(values.from === undefined ? join(config.dataDir, 'media') : text(values, 'from'));
    const backend = mediaBackendOf(config, database.engine);
    if (backend.kind === 'dir' && resolve(backend.dir) === from) {
      throw new CliError(`media are already served from ${from}: set DATABASE_URL (or STOREFRONT_MEDIA_DIR to another directory)`);
    }
    const result = await migrateMediaDir(from, createMediaStore(config, database));
    return { from, to: backend.kind === 'dir' ? backend.dir : 'database', ...result };
  });
}
