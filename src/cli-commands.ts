import { createApiKey, listApiKeys, revokeApiKey } from './api-keys/index.js';
import { ConfigError, loadConfig } from './config.js';
import { DataDirLockedError, openMigratedDatabase, withTx } from './db/index.js';
import { AppError } from './errors.js';
import { ALL_SCOPES } from './shared/index.js';
import { createAdmin, createStore, requireStore } from './stores/index.js';

const USAGE = `usage: storefront <command>
  serve [--workers N]                     run the HTTP server (default); N processes (PostgreSQL and Redis only)
  migrate                                 apply pending migrations
  stores create --slug S --name N --admin-email E --admin-password P
  admins create --store S --email E --password P
  api-keys create --store S --name N [--scopes products:read,orders:write | --scopes '*']
  api-keys list --store S
  api-keys revoke --store S --id ID`;

/** The data commands of the CLI (src/cli.ts dispatches; `serve` is src/server.ts). */

export class UsageError extends Error {}

function option(values: Record<string, string | boolean | undefined>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`missing --${name}\n${USAGE}`);
  return value;
}

function parseScopes(raw: string | undefined): string[] {
  const scopes = (raw ?? '*')
    .split(',')
    .map((scope) => scope.trim())
    .filter(Boolean);
  const unknown = scopes.filter((scope) => !ALL_SCOPES.includes(scope));
  if (unknown.length || scopes.length === 0) throw new UsageError(`unknown scope ${unknown.join(', ')}; allowed: ${ALL_SCOPES.join(', ')}`);
  return scopes;
}

export async function runDataCommand(command: string, values: Record<string, string | boolean | undefined>): Promise<unknown> {
  const config = loadConfig();
  const database = await openMigratedDatabase(config);
  const db = database.db;
  try {
    switch (command) {
      case 'migrate':
        return { migrated: true, engine: database.engine };
      case 'stores create':
        return await withTx(db, async (trx) => {
          const store = await createStore(trx, { slug: option(values, 'slug'), name: option(values, 'name') });
          const admin = await createAdmin(trx, store.id, {
            email: option(values, 'admin-email'),
            password: option(values, 'admin-password'),
          });
          return { store, admin };
        });
      case 'admins create': {
        const store = await requireStore(db, option(values, 'store'));
        return { admin: await createAdmin(db, store.id, { email: option(values, 'email'), password: option(values, 'password') }) };
      }
      case 'api-keys create': {
        const scopes = parseScopes(values.scopes as string | undefined);
        const store = await requireStore(db, option(values, 'store'));
        return await createApiKey(db, store.id, { name: option(values, 'name'), scopes });
      }
      case 'api-keys list':
        return await listApiKeys(db, (await requireStore(db, option(values, 'store'))).id);
      case 'api-keys revoke':
        return await revokeApiKey(db, (await requireStore(db, option(values, 'store'))).id, option(values, 'id'));
      default:
        throw new UsageError(`unknown command "${command}"\n${USAGE}`);
    }
  } finally {
    await database.close();
  }
}

export function describeError(error: unknown): string {
  if (error instanceof AppError) {
    const detail = error.details[0];
    return detail ? `${error.message}: ${detail.field} ${detail.message}` : error.message;
  }
  if (error instanceof UsageError || error instanceof ConfigError || error instanceof DataDirLockedError) return error.message;
  return `unexpected error: ${(error as Error).message}`;
}
