/**
 * `npm run db:types`: writes src/db/schema.generated.ts, Kysely's `DB` type, with kysely-codegen from the schema
 * migrations/ builds. It creates a throwaway database on the PostgreSQL server of TEST_DATABASE_URL (default
 * the local one), migrates it with the server's own migrate(), introspects it and drops it. `--check` (run by
 * `npm run lint`) writes nothing and fails when the committed file is not what the migrations generate.
 * What the schema cannot state (a jsonb column's document, a CHECKed text column's values, a column the
 * database computes) comes from kysely-codegen's overrides, naming the types of src/db/column-shapes.ts.
 */
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Cli, type Config } from 'kysely-codegen';
import pg from 'pg';
import { openDatabase } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { writeOrCheck } from './generated-file.js';

const OUT_FILE = fileURLToPath(new URL('../src/db/schema.generated.ts', import.meta.url));
const SERVER_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const SHAPES = './column-shapes.js';
const shapes = [
  'CheckedText',
  'CustomFields',
  'CollectionCondition',
  'ComputedByDatabase',
  'DeliveryStatus',
  'InventoryBehaviour',
  'JobErrorLevel',
  'JobStatus',
  'KeptByTrigger',
  'JsonDocument',
  'JsonDocumentWithDefault',
  'ProductOption',
  'ReturnConfig',
  'StoredCartItem',
  'StoredOrderAddress',
  'StoredRefund',
  'StoredStockMove',
  'StoredTrackingInfo',
] as const;

/** Columns whose type is narrower than the schema says (src/db/column-shapes.ts says why each is). */
const columns: Record<string, string> = {
  'collections.conditions': 'JsonDocumentWithDefault<CollectionCondition[]>',
  'collections.custom_fields': 'JsonDocumentWithDefault<CustomFields>',
  'customers.custom_fields': 'JsonDocumentWithDefault<CustomFields>',
  'events.data': 'JsonDocument<unknown>',
  'job_errors.details': 'JsonDocumentWithDefault<unknown[]>',
  'job_errors.level': 'CheckedText<JobErrorLevel>',
  'jobs.params': 'JsonDocumentWithDefault<Record<string, unknown>>',
  'jobs.status': 'CheckedText<JobStatus>',
  'orders.billing_address': 'JsonDocument<StoredOrderAddress> | null',
  'orders.cart_items': 'JsonDocument<StoredCartItem[]>',
  'orders.custom_fields': 'JsonDocumentWithDefault<CustomFields>',
  'orders.inventory_behaviour': 'CheckedText<InventoryBehaviour>',
  // GENERATED ALWAYS (kysely-codegen 0.20 sees only that they have a default)
  'orders.billing_first_name': 'ComputedByDatabase<string | null>',
  'orders.billing_last_name': 'ComputedByDatabase<string | null>',
  'orders.shipping_first_name': 'ComputedByDatabase<string | null>',
  'orders.shipping_last_name': 'ComputedByDatabase<string | null>',
  'orders.refund': 'JsonDocument<StoredRefund> | null',
  'orders.shipping_address': 'JsonDocument<StoredOrderAddress> | null',
  'orders.stock_moves': 'JsonDocument<StoredStockMove[]> | null',
  'orders.tracking_info': 'JsonDocumentWithDefault<StoredTrackingInfo[]>',
  'products.custom_fields': 'JsonDocumentWithDefault<CustomFields>',
  'products.options': 'JsonDocumentWithDefault<ProductOption[]>',
  // kept by triggers (migrations/0060, 0061): an INSERT may supply it, checked at commit
  'products.search_text': 'KeptByTrigger<string>',
  'products.return_config': 'JsonDocument<ReturnConfig>',
  'variants.attributes': 'JsonDocument<Record<string, string>>',
  'variants.custom_fields': 'JsonDocumentWithDefault<CustomFields>',
  'webhook_deliveries.status': 'CheckedText<DeliveryStatus>',
};

/** outFile null: kysely-codegen returns the file and writes nothing; main() compares or writes it. */
const codegenConfig = (url: string): Config => ({
  dialect: 'postgres',
  url,
  outFile: null,
  logLevel: 'error',
  excludePattern: 'schema_migrations',
  // bytea: Buffer from pg, Uint8Array from PGlite; code reads and writes Uint8Array.
  typeMapping: { bytea: 'Uint8Array' },
  customImports: Object.fromEntries(shapes.map((name) => [name, `${SHAPES}#${name}`])),
  overrides: { columns },
});

/**
 * Plainly first: kysely-codegen's connections may still be closing, and PostgreSQL waits a few seconds for
 * them. Only if one is still there (an introspection that failed midway) are this database's sessions ended.
 */
async function dropDatabase(admin: pg.Client, name: string): Promise<void> {
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
  } catch (error) {
    if ((error as { code?: string }).code !== '55006') throw error;
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

/** A database of our own on the server: created, migrated, handed over, always dropped. */
async function withThrowawayDatabase<T>(use: (url: string) => Promise<T>): Promise<T> {
  const name = `storefront_db_types_${process.pid}_${randomBytes(4).toString('hex')}`;
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
    try {
      const database = await openDatabase({ databaseUrl: url.href, dataDir: '', poolSize: 1 });
      try {
        await migrate(database.db);
      } finally {
        await database.close();
      }
      return await use(url.href);
    } finally {
      await dropDatabase(admin, name);
    }
  } finally {
    await admin.end();
  }
}

export function generateTableTypes(): Promise<string> {
  return withThrowawayDatabase((url) => new Cli().generate(codegenConfig(url)));
}

async function main(check: boolean): Promise<number> {
  return writeOrCheck(
    OUT_FILE,
    await generateTableTypes(),
    check,
    'src/db/schema.generated.ts is not what the migrations generate: run `npm run db:types` and commit it',
  );
}

if (import.meta.url === `file://${process.argv[1]}`) process.exit(await main(process.argv.includes('--check')));
