import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { setupTestApp } from '../../test/helpers.js';
import {
  bodyFor,
  type FuzzRequest,
  headersFor,
  type IdPool,
  type Operation,
  operationsOf,
  pathSegmentFor,
  queryFor,
} from '../../test/support/fuzz.arbitraries.js';
import { inlineDocument } from '../../test/support/openapi.js';
import { seedRecords } from '../../test/support/records.fixtures.js';

/**
 * Fuzzes every operation of the service's own OpenAPI document: no request, however broken, may get a
 * 5xx, hang, or an answer outside the error envelope. `npm test` sends a fixed-seed sample of 15
 * requests per operation; `npm run fuzz` sends 200 per operation with a fresh seed. FUZZ_RUNS and
 * FUZZ_SEED override both (a failure prints its seed and the shrunk request, to replay it).
 */
const FULL_RUN = process.env.npm_lifecycle_event === 'fuzz';
const RUNS = Number(process.env.FUZZ_RUNS ?? (FULL_RUN ? 200 : 15));
const SEED = Number(process.env.FUZZ_SEED ?? (FULL_RUN ? Date.now() % 1_000_000_000 : 20_260_422));
const REQUEST_TIMEOUT_MS = 15_000;
const DETAIL_LOCATIONS = ['body', 'query', 'path', 'header'];

const t = await setupTestApp();
const store = await t.newStore();
const records = await seedRecords(t, store);
const withImage = await t.call(store, 'POST', '/products', {
  title: 'Pictured',
  images: ['data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='],
});
const mediaFile = String(withImage.body.data.image[0]).split('/').pop() as string;
const { apiKeyValue, ...idsByKind } = records;
const ids = Object.values(idsByKind);
const doc = inlineDocument((await t.call(null, 'GET', '/api/v1/openapi.json')).body);
// Deletes last, so the other operations keep finding the records they aim at.
const operations = operationsOf(doc).sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
/** operation -> status -> count: what the fuzzer reached, printed at the end. */
const statuses = new Map<string, Map<number, number>>();
afterAll(async () => {
  const lines = [...statuses].map(
    ([name, counts]) =>
      `  ${name}: ${[...counts]
        .sort(([a], [b]) => a - b)
        .map(([s, n]) => `${s}×${n}`)
        .join(' ')}`,
  );
  const total = [...statuses.values()].flatMap((counts) => [...counts.values()]).reduce((sum, n) => sum + n, 0);
  console.log(
    `fuzz: ${operations.length} operations, ${total} requests (${RUNS} runs each plus shrinking), seed ${SEED}\n${lines.join('\n')}`,
  );
  await t.close();
});

/** The ids a path parameter should name, from the collection the path addresses. */
function rightIdsFor(path: string, param: string): string[] {
  if (param === 'variantId') return [currentVariant];
  if (param === 'customerId') return [records.customer];
  if (param === 'file') return [mediaFile];
  const byResource: Record<string, string[]> = {
    products: [records.product],
    collections: [records.collection, records.smartCollection],
    customers: [records.customer],
    addresses: [records.address],
    orders: [records.order],
    attributes: [records.attribute],
    'attribute-sets': [records.attributeSet],
    'api-keys': [records.apiKey],
  };
  return byResource[path.split('/')[3]] ?? [records.product];
}

// PATCH /products/{id} with new options replaces the variants: the one to aim at is read again before each operation.
let currentVariant = records.variant;
async function refreshVariant(): Promise<void> {
  const variants = await t.call(store, 'GET', `/products/${records.product}/variants`);
  if (variants.status === 200 && variants.body.data.length > 0) currentVariant = variants.body.data[0].id;
}

/** Reference fields and filters, by name: the ids they should hold to get past reference checks. */
const REFERENCES: Record<string, string[]> = {
  selectedCollections: [records.collection],
  selectedCollection: [records.collection],
  parentCollection: [records.collection],
  collection: [records.collection, records.smartCollection],
  selectedProducts: [records.product],
  productId: [records.product],
  attributeSet: [records.attributeSet],
  attributeset: [records.attributeSet],
  userId: [records.customer],
};
const pool: IdPool = { all: ids, forField: (name) => REFERENCES[name] ?? [] };

/** Which parts of a request are broken: none in 3 of 10 requests, so valid requests reach the service too. */
const plans = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ path: false, query: false, body: false, headers: false }) },
  {
    weight: 7,
    arbitrary: fc
      .record({ path: fc.boolean(), query: fc.boolean(), body: fc.boolean(), headers: fc.nat(3).map((n) => n === 0) })
      .filter((plan) => plan.path || plan.query || plan.body || plan.headers),
  },
);

function requestsFor(operation: Operation): fc.Arbitrary<FuzzRequest> {
  return plans.chain((plan) => {
    const segments = operation.pathParams.map((name) => pathSegmentFor(rightIdsFor(operation.path, name), pool, plan.path));
    const body = operation.body
      ? plan.body
        ? fc.option(bodyFor(operation.body, pool, true), { freq: 10, nil: undefined })
        : bodyFor(operation.body, pool, false)
      : plan.body
        ? fc.constantFrom('{"x":1}', '[1]', 'null')
        : fc.constant(undefined);
    return fc
      .record({
        segments: fc.tuple(...segments),
        query: queryFor(operation, pool, plan.query),
        headers: headersFor(store.token, apiKeyValue, plan.headers),
        body,
      })
      .map(({ segments: values, query, headers, body: payload }) => {
        const path = operation.pathParams.reduce((url, name, index) => url.replace(`{${name}}`, values[index]), operation.path);
        // A clean request without a body sends no Content-Type (with one, an empty body is rightly a 400).
        const { 'content-type': contentType, ...others } = headers;
        const sent = payload === undefined && !plan.headers ? others : headers;
        return { method: operation.method, url: path + query, headers: sent, payload };
      });
  });
}

async function send(request: FuzzRequest): Promise<LightMyRequestResponse> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)), REQUEST_TIMEOUT_MS);
  });
  try {
    return await Promise.race([
      t.app.inject({ method: request.method as 'GET', url: request.url, headers: request.headers, payload: request.payload }),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** What is wrong with an answer, or null: a 5xx, or a non-2xx outside the envelope. */
/** An export's body: every line one JSON object. */
function ndjsonProblem(body: string): string | null {
  for (const line of body.split('\n').filter(Boolean)) {
    try {
      const record = JSON.parse(line);
      if (record === null || typeof record !== 'object' || Array.isArray(record)) return `NDJSON line not an object: ${line.slice(0, 200)}`;
    } catch {
      return `NDJSON line that is not JSON: ${line.slice(0, 200)}`;
    }
  }
  return null;
}

/** A CSV export's body (format=shopify): RFC 4180, a header row, every row as many cells as it has. */
function csvProblem(body: string): string | null {
  try {
    const [header, ...rows] = parse(body) as string[][];
    if (!header || header.length === 0) return 'CSV without a header row';
    const short = rows.find((row) => row.length !== header.length);
    return short ? `CSV row of ${short.length} cells under a header of ${header.length}` : null;
  } catch (error) {
    return `CSV that does not parse: ${(error as Error).message.slice(0, 200)}`;
  }
}

function problemOf(response: LightMyRequestResponse, isMedia: boolean): string | null {
  if (response.statusCode >= 500) return `${response.statusCode} ${response.body.slice(0, 500)}`;
  if (response.statusCode < 300 && isMedia) return null;
  if (response.statusCode === 304) return null;
  if (response.statusCode < 300 && String(response.headers['content-type']).startsWith('application/x-ndjson'))
    return ndjsonProblem(response.body);
  if (response.statusCode < 300 && String(response.headers['content-type']).startsWith('text/csv')) return csvProblem(response.body);
  let body: { success?: unknown; error?: { code?: unknown; message?: unknown; details?: unknown } };
  try {
    body = response.json();
  } catch {
    return `${response.statusCode} answered with a body that is not JSON: ${response.body.slice(0, 200)}`;
  }
  if (response.statusCode < 300) return body.success === true ? null : `${response.statusCode} without success: true`;
  const error = body.error;
  const details = error?.details;
  const detailsOk =
    Array.isArray(details) &&
    details.every((d) => typeof d?.field === 'string' && typeof d?.message === 'string' && DETAIL_LOCATIONS.includes(d?.in));
  if (body.success !== false || typeof error?.code !== 'string' || typeof error?.message !== 'string' || !detailsOk) {
    return `${response.statusCode} outside the error envelope: ${response.body.slice(0, 300)}`;
  }
  if (/\bat .+:\d+:\d+|node_modules|\.ts:\d+/.test(response.body)) return `${response.statusCode} leaks a stack or path`;
  return null;
}

/** With `Prefer: handling=lenient` no name is refused for being unknown (it is ignored). */
function lenientProblem(request: FuzzRequest, response: LightMyRequestResponse): string | null {
  if (!/handling=lenient/.test(String(request.headers.prefer)) || response.statusCode !== 400) return null;
  const details = (response.json() as { error?: { details?: { field: string; message: string }[] } }).error?.details ?? [];
  const refused = details.find((detail) => /not a known property/.test(detail.message));
  return refused ? `lenient handling refused the unknown name ${refused.field}` : null;
}

describe(`fuzzing every operation of the OpenAPI document (${RUNS} requests each, seed ${SEED})`, () => {
  it('covers the whole document', () => {
    expect(operations.length).toBeGreaterThanOrEqual(40);
  });

  operations.forEach((operation, index) => {
    const name = `${operation.method} ${operation.path}`;
    it(name, { timeout: Math.max(120_000, RUNS * 2_000) }, async () => {
      const isMedia = operation.path.startsWith('/media/');
      await refreshVariant();
      await fc.assert(
        fc.asyncProperty(requestsFor(operation), async (request) => {
          const response = await send(request);
          const counts = statuses.get(name) ?? new Map<number, number>();
          statuses.set(name, counts.set(response.statusCode, (counts.get(response.statusCode) ?? 0) + 1));
          const problem = problemOf(response, isMedia) ?? lenientProblem(request, response);
          if (problem) throw new Error(`${request.method} ${request.url.slice(0, 300)} -> ${problem}`);
        }),
        { numRuns: RUNS, seed: SEED + index },
      );
    });
  });
});
