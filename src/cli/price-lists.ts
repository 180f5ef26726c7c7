import { CliError } from './cli-error.js';
import type { OptionValues } from './command-table.js';
import { type Api, apiFromEnv } from './http.js';
import { readItems } from './items-file.js';

/**
 * `storefront price-lists …` and `storefront prices` (CONTRACT §14): clients of a running server, like
 * `import`/`export`, so they work on any deployment, keep the API's checks and append its events. Each
 * prints the API's `data` as JSON (lists: one array of every page).
 */

/** What the API takes in one PUT or delete of fixed prices, and in one GET /prices. */
const ITEMS_PER_REQUEST = 1000;
const PRODUCTS_PER_REQUEST = 250;
const PAGE_LIMIT = 250;

const usage = (message: string) => new CliError(message, 2);
const given = (values: OptionValues, name: string) => (typeof values[name] === 'string' ? (values[name] as string) : undefined);
const listPath = (values: OptionValues) => `/price-lists/${encodeURIComponent(given(values, 'id') ?? '')}`;

/** Every record of a list endpoint, following `nextCursor` (oldest first). */
async function everyPage(api: Api, path: string, query: Record<string, string | undefined>): Promise<unknown[]> {
  const records: unknown[] = [];
  const params = new URLSearchParams({ limit: String(PAGE_LIMIT), sort: 'createdAt' });
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, value);
  for (;;) {
    const response = await api.request('GET', `${path}?${params}`);
    const body = (await response.json()) as { data: unknown[]; pagination: { nextCursor?: string | null } };
    records.push(...body.data);
    if (!body.pagination.nextCursor) return records;
    params.set('cursor', body.pagination.nextCursor);
  }
}

/** `--customer-tags a,b` as an array ('' clears them). */
const tagsOf = (text: string) =>
  text
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);

const ADJUSTMENT = /^(percentageDecrease|percentageIncrease):(\d+(\.\d+)?)$/;

/** `--adjustment percentageDecrease:10` as the API's object; `none` clears it. */
function adjustmentOf(text: string): { type: string; value: number } | null {
  if (text === 'none') return null;
  const match = ADJUSTMENT.exec(text);
  if (!match) throw usage(`--adjustment must be percentageDecrease:N, percentageIncrease:N (N from 0 to 100) or none, not '${text}'`);
  return { type: match[1], value: Number(match[2]) };
}

/** The body of POST or PATCH /price-lists from the options given (`none` clears a date or the adjustment). */
function listBody(values: OptionValues): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of ['name', 'currency', 'status'] as const) {
    const value = given(values, field);
    if (value !== undefined) body[field] = value;
  }
  for (const [option, field] of [
    ['starts-at', 'startsAt'],
    ['ends-at', 'endsAt'],
  ] as const) {
    const value = given(values, option);
    if (value !== undefined) body[field] = value === 'none' ? null : value;
  }
  const tags = given(values, 'customer-tags');
  if (tags !== undefined) body.customerTags = tagsOf(tags);
  const adjustment = given(values, 'adjustment');
  if (adjustment !== undefined) body.adjustment = adjustmentOf(adjustment);
  return body;
}

export function listPriceLists(values: OptionValues) {
  return everyPage(apiFromEnv(), '/price-lists', { currency: given(values, 'currency'), status: given(values, 'status') });
}

export const getPriceList = (values: OptionValues) => apiFromEnv().json('GET', listPath(values));

export const createPriceList = (values: OptionValues) => apiFromEnv().json('POST', '/price-lists', listBody(values));

export function updatePriceList(values: OptionValues) {
  const body = listBody(values);
  if (Object.keys(body).length === 0) {
    throw usage(
      "give at least one change (--name, --currency, --status, --starts-at, --ends-at, --customer-tags, --adjustment); run 'storefront price-lists update --help'",
    );
  }
  return apiFromEnv().json('PATCH', listPath(values), body);
}

export const deletePriceList = (values: OptionValues) => apiFromEnv().json('DELETE', listPath(values));

export const listFixedPrices = (values: OptionValues) =>
  everyPage(apiFromEnv(), `${listPath(values)}/prices`, { productId: given(values, 'product-id') });

/** The one FILE (`-`: stdin) of a command that takes items. */
function fileOf(positionals: string[], command: string): string {
  if (positionals.length !== 1)
    throw usage(`give one JSON or NDJSON file of items (- for stdin); run 'storefront price-lists ${command} --help'`);
  return positionals[0];
}

/**
 * Sends the items in requests of 1,000 (what the API takes at once; each request applies whole or not at all).
 * A refused request stops the command: its error names the item by its place in the file, and says how many
 * earlier items were applied.
 */
async function inRequests(items: unknown[], send: (part: unknown[]) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < items.length; start += ITEMS_PER_REQUEST) {
    try {
      await send(items.slice(start, start + ITEMS_PER_REQUEST));
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      // the API numbers the items of its request; the user knows them by their place in the file
      const message = error.message.replace(/items\[(\d+)\]/g, (_, index) => `items[${start + Number(index)}]`);
      throw new CliError(start === 0 ? message : `${message} (items 0 to ${start - 1} were applied)`, error.exitCode);
    }
  }
}

/**
 * `price-lists set-prices --id ID FILE`: PUT the file's items. An item as `price-lists prices` prints it is
 * taken as it is (its `updatedAt` and a null `variantId` are left out), so one list's prices copy to another.
 */
export async function setFixedPrices(values: OptionValues, positionals: string[]) {
  const items = (await readItems(fileOf(positionals, 'set-prices'))).map((item) => withoutFields(item));
  const api = apiFromEnv();
  await inRequests(items, (part) => api.json('PUT', `${listPath(values)}/prices`, { items: part }));
  return { priceListId: given(values, 'id'), set: items.length };
}

/** `price-lists delete-prices --id ID FILE`: the file's items (`{productId, variantId?}`) lose their fixed prices. */
export async function deleteFixedPrices(values: OptionValues, positionals: string[]) {
  const items = (await readItems(fileOf(positionals, 'delete-prices'))).map((item) => withoutFields(item, ['price', 'comparePrice']));
  const api = apiFromEnv();
  await inRequests(items, (part) => api.json('POST', `${listPath(values)}/prices/delete`, { items: part }));
  return { priceListId: given(values, 'id'), deleted: items.length };
}

/**
 * An item without what only GET's answer has (`updatedAt`, a null `variantId`) and the `fields` the request
 * ignores; anything else goes to the API as it is, which names what it refuses (nothing is dropped silently).
 */
function withoutFields(item: unknown, fields: string[] = []): unknown {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return item;
  const rest: Record<string, unknown> = { ...item };
  for (const field of ['updatedAt', ...fields]) delete rest[field];
  if (rest.variantId === null) delete rest.variantId;
  return rest;
}

/** `prices --product-ids a,b`: GET /prices, 250 products a request, one array in the order given. */
export async function resolvePrices(values: OptionValues) {
  const ids = (given(values, 'product-ids') ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
  if (ids.length === 0) throw usage("--product-ids must name at least one product; run 'storefront prices --help'");
  const api = apiFromEnv();
  const prices: unknown[] = [];
  for (let start = 0; start < ids.length; start += PRODUCTS_PER_REQUEST) {
    const params = new URLSearchParams({ productIds: ids.slice(start, start + PRODUCTS_PER_REQUEST).join(',') });
    for (const [option, name] of [
      ['currency', 'currency'],
      ['customer-id', 'customerId'],
      ['at', 'at'],
    ] as const) {
      const value = given(values, option);
      if (value !== undefined) params.set(name, value);
    }
    prices.push(...(await api.json<unknown[]>('GET', `/prices?${params}`)));
  }
  return prices;
}
