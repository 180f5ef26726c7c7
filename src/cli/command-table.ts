/**
 * The CLI's commands, in one declarative table: main.ts parses, dispatches and prints help from it, so a
 * new command is one entry here (its options and env vars get `--help` for free). Handlers are imported
 * lazily: the primary of `serve --workers N` loads only the cluster code, each data command only what it runs.
 */

import { PRICE_LIST_COMMANDS } from './price-list-commands.js';

/** A command line's options by name, as `node:util` parseArgs gives them to a command's `run`. */
export type OptionValues = Record<string, string | boolean | undefined>;

export interface CliOption {
  type: 'string' | 'boolean';
  /** the placeholder in usage lines, e.g. `SLUG` */
  value?: string;
  description: string;
  required?: boolean;
}

export interface CliCommand {
  /** one or two words: `serve`, `stores create` */
  name: string;
  summary: string;
  options: Record<string, CliOption>;
  /** environment variables this command reads beyond the database ones (DATABASE_URL, STOREFRONT_DATA_DIR) */
  env?: string[];
  /** a longer note under the usage line */
  notes?: string;
  /** the positional arguments it takes, as usage shows them (`FILE`); none when absent */
  positionals?: string;
  /** talks to a running server over HTTP: no database, so its help names no database variables */
  overHttp?: boolean;
  /** prints its own output and `run` resolves to the exit code */
  ownsOutput?: boolean;
  /** what it prints as JSON on stdout; `undefined` prints nothing (the command wrote its own output) */
  run(values: OptionValues, positionals: string[]): Promise<unknown>;
  /** serve: the process keeps running after `run` resolves */
  keepsRunning?: boolean;
}

const STORE: CliOption = { type: 'string', value: 'SLUG', description: 'the store, by slug', required: true };
const CURRENCY: CliOption = {
  type: 'string',
  value: 'CODE',
  description: "the currency of the store's base prices, an ISO 4217 code (default USD)",
};
const data = () => import('./data-commands.js');
const overHttp = () => import('./http-commands.js');
const HTTP_ENV = ['STOREFRONT_URL (the server, e.g. http://127.0.0.1:3000)', 'STOREFRONT_API_KEY (an API key of the store)'];

export const COMMANDS: CliCommand[] = [
  {
    name: 'serve',
    summary: 'run the HTTP server (the default command)',
    options: {
      workers: {
        type: 'string',
        value: 'N',
        description: 'server processes on one port (PostgreSQL and Redis only); same as STOREFRONT_WORKERS',
      },
    },
    env: ['HOST', 'PORT', 'STOREFRONT_JWT_SECRET', 'REDIS_URL', 'STOREFRONT_WORKERS', 'LOG_LEVEL', '… every variable of the README'],
    notes: 'Migrates, then serves until SIGTERM or SIGINT.',
    keepsRunning: true,
    run: async (values) => (await import('../cluster.js')).runServe(values.workers as string | undefined),
  },
  { name: 'migrate', summary: 'apply pending migrations', options: {}, run: async () => (await data()).migrate() },
  {
    name: 'stores create',
    summary: 'create a store and its first admin',
    options: {
      slug: { type: 'string', value: 'SLUG', description: 'lowercase letters, digits and dashes, 1-64', required: true },
      name: { type: 'string', value: 'NAME', description: 'display name', required: true },
      'admin-email': { type: 'string', value: 'EMAIL', description: "the first admin's email", required: true },
      'admin-password': { type: 'string', value: 'PASSWORD', description: "the first admin's password (8-256 characters)", required: true },
      currency: CURRENCY,
    },
    run: async (values) => (await data()).createStoreWithAdmin(values),
  },
  {
    name: 'stores update',
    summary: "change a store's name or currency",
    options: {
      slug: { type: 'string', value: 'SLUG', description: 'the store', required: true },
      name: { type: 'string', value: 'NAME', description: 'a new display name' },
      currency: { ...CURRENCY, description: "the currency of the store's base prices (ISO 4217: EUR, JPY, …)" },
    },
    notes: 'A new currency relabels the base prices as they are (no conversion); price lists keep theirs.',
    run: async (values) => (await data()).updateStoreSettings(values),
  },
  { name: 'stores list', summary: 'list every store (JSON array)', options: {}, run: async () => (await data()).listAllStores() },
  {
    name: 'admins create',
    summary: 'add an admin to a store (they log in with POST /auth)',
    options: {
      store: STORE,
      email: { type: 'string', value: 'EMAIL', description: 'login email, unique in the store', required: true },
      password: { type: 'string', value: 'PASSWORD', description: '8-256 characters', required: true },
    },
    run: async (values) => (await data()).addAdmin(values),
  },
  {
    name: 'admins list',
    summary: 'list admins (JSON array, without password hashes)',
    options: { store: { ...STORE, required: false, description: "only this store's admins (default: every store's)" } },
    run: async (values) => (await data()).listStoreAdmins(values),
  },
  {
    name: 'api-keys create',
    summary: 'create an API key (the key is printed once)',
    options: {
      store: STORE,
      name: { type: 'string', value: 'NAME', description: 'what the key is for', required: true },
      scopes: { type: 'string', value: 'LIST', description: "comma-separated scopes (products:read,orders:write) or '*' (default)" },
    },
    run: async (values) => (await data()).addApiKey(values),
  },
  {
    name: 'api-keys request',
    summary: 'ask a running server for an API key, signing in as an admin (no database: works while the server runs)',
    options: {
      credentials: {
        type: 'string',
        value: 'FILE',
        description: 'a JSON file {storeSlug, email, password}, e.g. data/demo-credentials.json',
        required: true,
      },
      name: { type: 'string', value: 'NAME', description: 'what the key is for', required: true },
      scopes: { type: 'string', value: 'LIST', description: "comma-separated scopes (products:read,orders:write) or '*' (default)" },
    },
    env: ['STOREFRONT_URL (the server, e.g. http://127.0.0.1:3000)'],
    notes: 'Prints what api-keys create prints; the key is shown only here',
    overHttp: true,
    run: async (values) => (await import('./api-key-request.js')).requestApiKey(values),
  },
  {
    name: 'api-keys list',
    summary: "list a store's API keys (never the keys)",
    options: { store: STORE },
    run: async (values) => (await data()).listStoreApiKeys(values),
  },
  {
    name: 'api-keys revoke',
    summary: 'revoke an API key at once',
    options: { store: STORE, id: { type: 'string', value: 'ID', description: 'the key id (from api-keys list)', required: true } },
    run: async (values) => (await data()).revokeStoreApiKey(values),
  },
  {
    name: 'products rebuild-documents',
    summary: 'write the stored document GET /products/{id} sends for every product lacking a current one',
    options: { store: { ...STORE, required: false, description: "only this store's products (default: every store's)" } },
    notes: 'For products written before documents were kept or changed outside the API; GET builds those from their rows meanwhile.',
    run: async (values) => (await data()).rebuildDocuments(values),
  },
  {
    name: 'customers rebuild-documents',
    summary: 'write the stored document GET /customers sends for every customer lacking a current one',
    options: { store: { ...STORE, required: false, description: "only this store's customers (default: every store's)" } },
    notes: 'For customers written before documents were kept or changed outside the API; the list builds those from their rows meanwhile.',
    run: async (values) => (await data()).rebuildCustomerDocumentsOf(values),
  },
  {
    name: 'media migrate',
    summary: 'move media files from a directory into the configured media store (the database, or STOREFRONT_MEDIA_DIR)',
    options: {
      from: { type: 'string', value: 'DIR', description: "the directory to empty (default: the data dir's media/)" },
    },
    env: ['STOREFRONT_MEDIA_DIR'],
    notes: 'Each file is checked against its name (a content address), stored, then deleted; safe to run again. Servers may keep running.',
    run: async (values) => (await data()).migrateMedia(values),
  },
  {
    name: 'import',
    summary: "upload an NDJSON or CSV file to a server's import endpoint and follow the job to its end",
    options: {
      resource: { type: 'string', value: 'R', description: 'products, collections, customers, orders or inventory', required: true },
      format: {
        type: 'string',
        value: 'F',
        description:
          'ndjson, csv, shopify or woocommerce (default: CSV for a .csv file, whose layout the server recognises; NDJSON otherwise)',
      },
      'dry-run': {
        type: 'boolean',
        description: 'check every line as a real run would and write nothing (the job reports what it would do)',
      },
    },
    positionals: 'FILE',
    env: HTTP_ENV,
    notes: 'A progress bar on a terminal, a JSON line per second otherwise; exit 1 when any line failed (its errors are printed)',
    overHttp: true,
    ownsOutput: true,
    run: async (values, positionals) => (await overHttp()).runHttpCommand('import', values, positionals),
  },
  {
    name: 'export',
    summary: "stream a store's records from a server as NDJSON, or as a platform's CSV",
    options: {
      resource: {
        type: 'string',
        value: 'R',
        description: 'products, collections, attributes, attributeSets, customers, orders or inventory',
        required: true,
      },
      format: {
        type: 'string',
        value: 'F',
        description: 'ndjson (default) or shopify (products, customers, orders, inventory: CSV as Shopify imports it)',
      },
      out: { type: 'string', value: 'FILE', description: 'write to FILE (default: stdout)' },
      'updated-since': { type: 'string', value: 'TIME', description: 'only records updated at or after this date-time' },
    },
    env: HTTP_ENV,
    overHttp: true,
    ownsOutput: true,
    run: async (values, positionals) => (await overHttp()).runHttpCommand('export', values, positionals),
  },
  ...PRICE_LIST_COMMANDS,
];
