import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, setupTestApp, type TestContext } from '../../test/helpers.js';
import { settled } from '../../test/support/feed.fixtures.js';
import { importAndRun, NDJSON, postImport, runStoreJobs, storedUploads } from '../../test/support/jobs.fixtures.js';
import { inlineDocument } from '../../test/support/openapi.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

const OPTIONS = [
  { name: 'Size', values: ['S', 'M', 'L'] },
  { name: 'Color', values: ['Red', 'Blue', 'Green'] },
];

function productLine(handle: string, price = 10) {
  return {
    id: 'ignored-id',
    createdAt: '2001-01-01T00:00:00.000Z',
    title: `Product ${handle}`,
    handle,
    price,
    options: OPTIONS,
    variants: [{ id: 'ignored', attributes: { Size: 'M', Color: 'Blue' }, price: price + 2, stock: 4, sku: `${handle}-m-blue` }],
  };
}

describe('POST /imports?resource=products', () => {
  it('applies good lines, reports bad ones with line numbers, codes and details, with exact counters', async () => {
    const store = await t.newStore();
    const lines = [
      productLine('alpha'),
      '',
      productLine('beta', 20),
      '{not json',
      { title: '', handle: 'empty-title' },
      { title: 'Negative', handle: 'neg', price: -1 },
      '   ',
      { title: 'Bad collection', handle: 'bad-coll', selectedCollections: ['0123456789abcdef01234567'] },
      productLine('gamma', 30),
    ];
    const posted = await postImport(t, store, 'products', lines);
    expect(posted.status).toBe(202);
    expect(posted.headers.location).toBe(`/api/v1/jobs/${posted.body.data.id}`);
    expect(posted.body.data).toMatchObject({ type: 'import', resource: 'products', status: 'queued', total: 7, processed: 0 });
    await runStoreJobs(t, store);
    const job = (await t.call(store, 'GET', `/jobs/${posted.body.data.id}`)).body.data;
    expect(job).toMatchObject({ status: 'succeeded', total: 7, processed: 7, created: 3, updated: 0, failed: 4 });
    expect(job.startedAt).not.toBeNull();
    expect(job.finishedAt).not.toBeNull();

    const errors = await t.call(store, 'GET', `/jobs/${job.id}/errors`);
    expect(errors.status).toBe(200);
    expect(errors.body.pagination).toMatchObject({ total: 4, page: 1 });
    expect(errors.body.data.map((e: { line: number; code: string }) => [e.line, e.code])).toEqual([
      [4, 'INVALID_JSON'],
      [5, 'VALIDATION_ERROR'],
      [6, 'VALIDATION_ERROR'],
      [8, 'VALIDATION_ERROR'],
    ]);
    // the same details as POST /products gives for the same body
    const direct = await t.call(store, 'POST', '/products', { title: 'Negative', handle: 'neg', price: -1 });
    expect(errors.body.data[2].details).toEqual(expectError(direct, 400, 'VALIDATION_ERROR').details);
    const badRef = await t.call(store, 'POST', '/products', lines[7]);
    expect(errors.body.data[3].details).toEqual(expectError(badRef, 400, 'VALIDATION_ERROR').details);
    expect(errors.body.data[1].details[0]).toMatchObject({ field: 'title', in: 'body' });

    const page2 = await t.call(store, 'GET', `/jobs/${job.id}/errors?limit=3&page=2`);
    expect(page2.body.data.map((e: { line: number }) => e.line)).toEqual([8]);

    const beta = (await t.call(store, 'GET', '/products?handle=beta')).body.data[0];
    expect(beta.id).not.toBe('ignored-id');
    expect(beta.createdAt).not.toBe('2001-01-01T00:00:00.000Z');
    expect(beta.variants).toHaveLength(9);
    const blue = beta.variants.find(
      (v: { attributes: Record<string, string> }) => v.attributes.Size === 'M' && v.attributes.Color === 'Blue',
    );
    expect(blue).toMatchObject({ price: 22, stock: 4, sku: 'beta-m-blue' });
    // the upload is removed once its job has ended
    expect(await storedUploads(t, store.id)).toEqual([]);
  });

  it('re-importing the same file updates and creates nothing; the data is the same', async () => {
    const store = await t.newStore();
    const lines = [productLine('one'), productLine('two')];
    const first = await importAndRun(t, store, 'products', lines);
    expect(first).toMatchObject({ created: 2, updated: 0, failed: 0 });
    const before = (await t.call(store, 'GET', '/products?sort=title')).body.data;
    const second = await importAndRun(t, store, 'products', lines);
    expect(second).toMatchObject({ status: 'succeeded', created: 0, updated: 2, failed: 0 });
    const after = (await t.call(store, 'GET', '/products?sort=title')).body.data;
    expect(after.map((p: { id: string }) => p.id)).toEqual(before.map((p: { id: string }) => p.id));
    const strip = (p: { variants: { id: string; price: number; sku: string; stock: number }[] }) =>
      p.variants.map((v) => [v.id, v.price, v.sku, v.stock]);
    expect(after.map(strip)).toEqual(before.map(strip));
    expect(after).toHaveLength(2);
  });

  it('updates a matched product as PATCH would: fields the line leaves out keep their value', async () => {
    const store = await t.newStore();
    await importAndRun(t, store, 'products', [{ ...productLine('keep'), description: 'Kept', badge: 'New' }]);
    const job = await importAndRun(t, store, 'products', [{ title: 'Renamed', handle: 'Keep', price: 11 }]);
    expect(job).toMatchObject({ created: 0, updated: 1 });
    const [product] = (await t.call(store, 'GET', '/products?handle=keep')).body.data;
    expect(product).toMatchObject({ title: 'Renamed', description: 'Kept', badge: 'New', price: 11 });
    expect(product.variants).toHaveLength(9);
  });

  it('appends the same events as the API writes', async () => {
    const store = await t.newStore();
    await importAndRun(t, store, 'products', [productLine('evt')]);
    await importAndRun(t, store, 'products', [{ title: 'Evt 2', handle: 'evt' }, '{bad']);
    // On PostgreSQL any open transaction of the cluster (another test file) holds the feed back.
    await settled(t);
    const events = (await t.call(store, 'GET', '/events?limit=100')).body.data as {
      type: string;
      data: { handle: string; title: string };
    }[];
    const ofProduct = events.filter((e) => e.type.startsWith('product.'));
    expect(ofProduct.map((e) => e.type)).toEqual(['product.created', 'product.updated']);
    expect(ofProduct[1].data).toMatchObject({ handle: 'evt', title: 'Evt 2' });
    // option attributes are upserted by the product write, with their events, as through the API
    expect(events.some((e) => e.type === 'attribute.created')).toBe(true);
  });

  it('refuses other content types (415), an unknown resource (400), and a body over the limit (413)', async () => {
    const store = await t.newStore();
    expectError(await t.call(store, 'POST', '/imports?resource=products', { title: 'x' }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    expectError(
      await t.call(store, 'POST', '/imports?resource=products', 'a', { 'content-type': 'text/plain' }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    expectError(await t.call(store, 'POST', '/imports?resource=products'), 415, 'UNSUPPORTED_MEDIA_TYPE');
    const bad = expectError(await postImport(t, store, 'widgets', [productLine('w')]), 400, 'VALIDATION_ERROR');
    expect(bad.details[0]).toMatchObject({ field: 'resource', in: 'query' });
    expectError(await t.call(store, 'POST', '/imports', '{}', NDJSON), 400, 'VALIDATION_ERROR');
    const small = await setupTestApp({ importMaxBytes: 100 });
    try {
      const smallStore = await small.newStore();
      const big = await small.call(smallStore, 'POST', '/imports?resource=products', 'x'.repeat(500), NDJSON);
      expectError(big, 413, 'PAYLOAD_TOO_LARGE');
      expect(await storedUploads(small, smallStore.id)).toEqual([]);
    } finally {
      await small.close();
    }
    expect((await t.call(store, 'GET', '/jobs')).body.data).toEqual([]);
  });

  it('replays the same 202 for a retry with the same Idempotency-Key, and keeps one job and one file', async () => {
    const store = await t.newStore();
    const key = { 'idempotency-key': `imp-${store.id}` };
    const lines = [productLine('idem')];
    const first = await postImport(t, store, 'products', lines, key);
    const again = await postImport(t, store, 'products', lines, key);
    expect(first.status).toBe(202);
    expect(again.status).toBe(202);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers.location).toBe(first.headers.location);
    expect(again.body).toEqual(first.body);
    expect((await t.call(store, 'GET', '/jobs')).body.pagination.total).toBe(1);
    expectError(await postImport(t, store, 'products', [productLine('other')], key), 422, 'IDEMPOTENCY_KEY_REUSED');
    await runStoreJobs(t, store);
    expect((await t.call(store, 'GET', '/products')).body.pagination.total).toBe(1);
  });
});

describe('jobs: cancel, tenancy, scopes', () => {
  it('cancels a queued job at once (its file removed) and a running one after its current batch', async () => {
    const store = await t.newStore();
    const queued = (await postImport(t, store, 'products', [productLine('c1')])).body.data;
    expect(await storedUploads(t, store.id)).toHaveLength(1);
    const cancelled = await t.call(store, 'POST', `/jobs/${queued.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ status: 'cancelled', processed: 0 });
    expect(cancelled.body.data.finishedAt).not.toBeNull();
    expect(await storedUploads(t, store.id)).toEqual([]);

    const lines = Array.from({ length: 250 }, (_, i) => ({ title: `P${i}`, handle: `p-${i}` }));
    const running = (await postImport(t, store, 'products', lines)).body.data;
    await runStoreJobs(t, store, { crashAfterBatches: 1 });
    // the runner is "between batches": the cancel is seen by its next batch
    expect((await t.call(store, 'POST', `/jobs/${running.id}/cancel`)).body.data.status).toBe('running');
    await t.database.db
      .updateTable('jobs')
      .set({ lease_until: new Date(0) })
      .where('store_id', '=', store.id)
      .where('id', '=', running.id)
      .execute();
    await runStoreJobs(t, store);
    const job = (await t.call(store, 'GET', `/jobs/${running.id}`)).body.data;
    expect(job).toMatchObject({ status: 'cancelled', processed: 100, created: 100 });
    expect((await t.call(store, 'GET', '/products?handle=p-100')).body.data).toEqual([]);
    // cancelling a finished job changes nothing
    expect((await t.call(store, 'POST', `/jobs/${running.id}/cancel`)).body.data).toEqual(job);
  });

  it("a store never sees another store's jobs", async () => {
    const a = await t.newStore();
    const b = await t.newStore();
    const job = (await postImport(t, a, 'products', [productLine('mine')])).body.data;
    expectError(await t.call(b, 'GET', `/jobs/${job.id}`), 404, 'NOT_FOUND');
    expectError(await t.call(b, 'GET', `/jobs/${job.id}/errors`), 404, 'NOT_FOUND');
    expectError(await t.call(b, 'POST', `/jobs/${job.id}/cancel`), 404, 'NOT_FOUND');
    expect((await t.call(b, 'GET', '/jobs')).body.data).toEqual([]);
    expect((await t.call(a, 'GET', '/jobs')).body.data.map((j: { id: string }) => j.id)).toEqual([job.id]);
  });

  it("a line's references must name records of the importing store", async () => {
    const a = await t.newStore();
    const b = await t.newStore();
    const other = await t.call(b, 'POST', '/collections', { title: 'Theirs' });
    const job = await importAndRun(t, a, 'products', [{ title: 'X', handle: 'x', selectedCollections: [other.body.data.id] }]);
    expect(job).toMatchObject({ failed: 1, created: 0 });
    const [error] = (await t.call(a, 'GET', `/jobs/${job.id}/errors`)).body.data;
    expect(error).toMatchObject({ line: 1, code: 'VALIDATION_ERROR' });
    expect(error.details[0].field).toMatch(/^selectedCollections/);
  });

  it("needs the resource's write scope to import, its read scope to read the job", async () => {
    const store = await t.newStore();
    const keyOf = async (scopes: string[]) => (await t.call(store, 'POST', '/api-keys', { name: scopes.join(','), scopes })).body.data.key;
    const reader = await keyOf(['products:read']);
    const writer = await keyOf(['products:write']);
    const other = await keyOf(['customers:read', 'customers:write']);
    expectError(await postImport(t, reader, 'products', [productLine('s')]), 403, 'FORBIDDEN');
    expectError(await postImport(t, other, 'products', [productLine('s')]), 403, 'FORBIDDEN');
    const posted = await postImport(t, writer, 'products', [productLine('s')]);
    expect(posted.status).toBe(202);
    const id = posted.body.data.id;
    expect((await t.call(reader, 'GET', `/jobs/${id}`)).status).toBe(200);
    expectError(await t.call(other, 'GET', `/jobs/${id}`), 403, 'FORBIDDEN');
    expect((await t.call(other, 'GET', '/jobs')).body.data).toEqual([]);
    expect((await t.call(reader, 'GET', '/jobs')).body.data).toHaveLength(1);
    expectError(await t.call(reader, 'POST', `/jobs/${id}/cancel`), 403, 'FORBIDDEN');
    expect((await t.call(writer, 'POST', `/jobs/${id}/cancel`)).status).toBe(200);
  });
});

describe('jobs: resume', () => {
  it('a job whose runner died after batch k resumes after it: exact counters, no duplicates', async () => {
    const store = await t.newStore();
    const lines = Array.from({ length: 230 }, (_, i) => (i === 150 ? '{broken' : { title: `R${i}`, handle: `r-${i}`, price: i }));
    const posted = (await postImport(t, store, 'products', lines)).body.data;
    await runStoreJobs(t, store, { crashAfterBatches: 2 });
    const halfway = (await t.call(store, 'GET', `/jobs/${posted.id}`)).body.data;
    expect(halfway).toMatchObject({ status: 'running', processed: 200, created: 199, failed: 1 });
    // its lease still holds: nobody else takes it
    await runStoreJobs(t, store);
    expect((await t.call(store, 'GET', `/jobs/${posted.id}`)).body.data.processed).toBe(200);
    // the dead runner's lease runs out: the next runner resumes after the last committed batch
    await t.database.db
      .updateTable('jobs')
      .set({ lease_until: new Date(0) })
      .where('store_id', '=', store.id)
      .where('id', '=', posted.id)
      .execute();
    await runStoreJobs(t, store);
    const done = (await t.call(store, 'GET', `/jobs/${posted.id}`)).body.data;
    expect(done).toMatchObject({ status: 'succeeded', total: 230, processed: 230, created: 229, updated: 0, failed: 1 });
    expect((await t.call(store, 'GET', '/products?limit=1')).body.pagination.total).toBe(229);
    const errors = (await t.call(store, 'GET', `/jobs/${posted.id}/errors`)).body.data;
    expect(errors.map((e: { line: number }) => e.line)).toEqual([151]);
  });
});

describe('OpenAPI', () => {
  it('documents POST /imports with an NDJSON or CSV body and a 202 job, and the jobs routes', async () => {
    const paths = inlineDocument((await t.call(null, 'GET', '/openapi.json')).body).paths;
    const post = paths['/api/v1/imports'].post;
    expect(Object.keys(post.requestBody.content)).toEqual(['application/x-ndjson', 'text/csv']);
    expect(post.responses['202']).toBeDefined();
    expect(post.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['resource', 'format', 'dryRun']));
    for (const path of ['/api/v1/jobs', '/api/v1/jobs/{id}', '/api/v1/jobs/{id}/errors', '/api/v1/jobs/{id}/cancel']) {
      expect(paths[path], path).toBeDefined();
    }
  });
});

describe('POST /imports refuses before it reads the body (CONTRACT §4)', () => {
  /** A large NDJSON body produced as it is read: how much of it the server pulled is counted. */
  function largeBody(bytes: number) {
    const line = `${JSON.stringify({ title: 'x'.repeat(1000) })}\n`;
    let pulled = 0;
    const stream = new Readable({
      read() {
        if (pulled >= bytes) this.push(null);
        else {
          pulled += line.length;
          this.push(line);
        }
      },
    });
    return { stream, pulled: () => pulled };
  }

  it('an unknown resource (400) or a missing scope (403) stores nothing and reads almost none of a 20 MB body', async () => {
    const store = await t.newStore();
    const feedOnly = (await t.call(store, 'POST', '/api-keys', { name: 'feed', scopes: ['events:read'] })).body.data.key;
    for (const [resource, status, code] of [
      ['bogus', 400, 'VALIDATION_ERROR'],
      ['products', 403, 'FORBIDDEN'],
    ] as const) {
      const body = largeBody(20 * 1024 * 1024);
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/v1/imports?resource=${resource}`,
        headers: { authorization: `Bearer ${feedOnly}`, 'content-type': 'application/x-ndjson' },
        payload: body.stream,
      });
      expect(response.statusCode).toBe(status);
      expect(JSON.parse(response.body).error.code).toBe(code);
      expect(body.pulled()).toBeLessThan(2 * 1024 * 1024);
      expect(await storedUploads(t, store.id)).toEqual([]);
    }
  });
});
