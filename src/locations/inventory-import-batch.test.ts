import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { type FeedEvent, feedOf } from '../../test/support/feed.fixtures.js';
import { postImport } from '../../test/support/jobs.fixtures.js';
import { importJobKind } from '../imports/import-job.js';
import { createUploadStore } from '../imports/index.js';
import { runOneJob } from '../jobs/runner.js';
import type { ImportBatchResult, ImportHandler } from '../shared/index.js';
import { importInventoryLine } from './inventory.import.js';
import { importInventoryBatch } from './inventory.import-batch.js';

/**
 * The inventory import's batch applier gives what the line handler gives line by line: the job's counters,
 * its error rows, the levels, the locations created and the inventory.updated events, in file order.
 */

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());
const { eventsOf, body } = feedOf(() => t);

type Mode = 'batch' | 'per-line' | 'throwing';

/** Runs the store's import jobs with the inventory batch applier, without it, or with one that writes then throws. */
async function runImports(store: TestStore, mode: Mode, seen: ImportBatchResult[][]) {
  const inventory: ImportHandler = {
    line: importInventoryLine,
    ...(mode === 'per-line'
      ? {}
      : {
          batch: async (...args) => {
            const results = await importInventoryBatch(...args);
            seen.push(results);
            if (mode === 'throwing') throw new Error('batch applier bug');
            return results;
          },
        }),
  };
  const kind = importJobKind({
    uploads: createUploadStore(t.config.dataDir, t.database),
    maxLineBytes: t.config.bodyLimit,
    handlers: { inventory },
    batchLines: 100,
    batchMs: 3_600_000,
    log: { error: () => undefined },
    afterWork: t.afterWork,
  });
  const runner = { db: t.database.db, kinds: { import: kind }, leaseSeconds: 30, log: { warn: () => undefined, error: () => undefined } };
  while (await runOneJob(runner, { storeId: store.id })) {}
}

async function importInventory(store: TestStore, lines: unknown[], mode: Mode) {
  const seen: ImportBatchResult[][] = [];
  let id = '';
  const events = await eventsOf(store, async () => {
    const posted = await postImport(t, store, 'inventory', lines);
    expect(posted.status, JSON.stringify(posted.body)).toBe(202);
    id = posted.body.data.id;
    await runImports(store, mode, seen);
  });
  const job = await body(store, 'GET', `/jobs/${id}`);
  const errors = await body(store, 'GET', `/jobs/${id}/errors?limit=100`);
  return { job, errors, events, seen };
}

/** A store with a simple product (MUG, 2 at Default), a tee of three sizes, two items sharing a SKU, Shop and an inactive Closed. */
async function catalogStore() {
  const store = await t.newStore();
  await body(store, 'POST', '/products', { title: 'Mug', handle: 'mug', sku: 'MUG', totalStock: 2 });
  await body(store, 'POST', '/products', {
    title: 'Tee',
    handle: 'tee',
    options: [{ name: 'Size', values: ['S', 'M', 'L'] }],
    variants: ['S', 'M', 'L'].map((size) => ({ attributes: { Size: size }, sku: size === 'L' ? null : `TEE-${size}` })),
  });
  await body(store, 'POST', '/products', { title: 'One', handle: 'one', sku: 'SAME' });
  await body(store, 'POST', '/products', { title: 'Two', handle: 'two', sku: 'SAME' });
  await body(store, 'POST', '/locations', { name: 'Shop' });
  const closed = await body(store, 'POST', '/locations', { name: 'Closed' });
  await body(store, 'PATCH', `/locations/${closed.id}`, { active: false });
  return store;
}

/** The store's levels as `location / sku-or-handle → available`, sorted. */
async function levelsOf(store: TestStore): Promise<string[]> {
  const names = new Map((await body(store, 'GET', '/locations?limit=100')).map((l: { id: string; name: string }) => [l.id, l.name]));
  const items = new Map<string, string>();
  for (const product of await body(store, 'GET', '/products?limit=100')) {
    items.set(product.id, product.sku ?? product.handle);
    for (const variant of product.variants) items.set(variant.id, variant.sku ?? `${product.handle} ${variant.attributes.Size}`);
  }
  const levels = await body(store, 'GET', '/inventory-levels?limit=250');
  return levels
    .map(
      (level: { productId: string; variantId: string | null; locationId: string; available: number }) =>
        `${names.get(level.locationId)} / ${items.get(level.variantId ?? level.productId)} → ${level.available}`,
    )
    .sort();
}

const levelEvents = (events: FeedEvent[]) =>
  events
    .filter((event) => event.type === 'inventory.updated')
    .map((event) => [event.data.variantId ?? event.data.productId, event.data.available]);

const LINES = [
  { sku: 'MUG', location: 'Default', available: 5 },
  { sku: 'TEE-S', location: 'Shop', available: 3 },
  { sku: 'TEE-M', location: 'shop', available: 0 },
  { sku: 'NOPE', location: 'Shop', available: 1 },
  { productHandle: 'tee', options: { size: 'L' }, location: 'Shop', available: 7 },
  { sku: 'MUG', location: 'Closed', available: 1 },
  { sku: 'SAME', location: 'Shop', available: 1 },
  { sku: 'MUG', location: 'Shop', available: null },
  { sku: 'MUG', location: 'Default', available: 5 },
  { sku: 'TEE-S', location: 'New place', available: 2 },
  { sku: 'TEE-S', location: 'Shop', available: 4 },
  { sku: 'MUG', location: 'Shop', available: 1, extra: true },
];

describe('inventory import: the batch applier', () => {
  it('gives what the line handler gives line by line: counters, errors, levels, locations, events', async () => {
    const outcomes = [];
    for (const mode of ['batch', 'per-line', 'throwing'] as const) {
      const store = await catalogStore();
      const { job, errors, events, seen } = await importInventory(store, LINES, mode);
      if (mode === 'batch') {
        // the batch part applied the lines up to the first one naming a level twice (line 9), and judged their errors
        expect(seen[0].map((result) => (result instanceof Error ? 'error' : result))).toEqual([
          'updated',
          'created',
          'created',
          'error',
          'created',
          'error',
          'error',
          'unchanged',
          null,
          null,
          null,
          'error',
        ]);
      }
      outcomes.push({
        counters: [job.processed, job.created, job.updated, job.failed],
        createdLocations: job.createdLocations,
        errors: errors.map(({ line, code, message, details }: Record<string, unknown>) => ({ line, code, message, details })),
        levels: await levelsOf(store),
        levelEvents: levelEvents(events).length,
        products: new Set(events.filter((event) => event.type === 'product.updated').map((event) => event.data.handle)),
      });
    }
    expect(outcomes[0]).toMatchObject({
      counters: [12, 4, 4, 4],
      createdLocations: ['New place'],
      levels: ['Default / MUG → 5', 'New place / TEE-S → 2', 'Shop / TEE-M → 0', 'Shop / TEE-S → 4', 'Shop / tee L → 7'],
      levelEvents: 5,
    });
    expect(outcomes[0].errors.map((error: { line: number; code: string }) => [error.line, error.code])).toEqual([
      [4, 'VALIDATION_ERROR'],
      [6, 'VALIDATION_ERROR'],
      [7, 'VALIDATION_ERROR'],
      [12, 'VALIDATION_ERROR'],
    ]);
    expect(outcomes[1]).toEqual(outcomes[0]);
    expect(outcomes[2]).toEqual(outcomes[0]);
  });

  it('one inventory.updated per changed level, as GET /inventory-levels shows it; none when the file is applied again', async () => {
    const store = await catalogStore();
    const lines = [
      { sku: 'MUG', location: 'Default', available: 9 },
      { sku: 'TEE-S', location: 'Shop', available: 3 },
      { sku: 'TEE-M', location: 'Default', available: 0 },
    ];
    const first = await importInventory(store, lines, 'batch');
    const listed = await body(store, 'GET', '/inventory-levels?limit=250');
    const levels = first.events.filter((event) => event.type === 'inventory.updated');
    expect(levels.map((event) => event.data.available)).toEqual([9, 3]);
    for (const event of levels) expect(event.data).toEqual(listed.find((level: { id: string }) => level.id === event.data.id));
    expect(
      first.events
        .filter((event) => event.type === 'product.updated')
        .map((event) => event.data.handle)
        .sort(),
    ).toEqual(['mug', 'tee']);
    const again = await importInventory(store, lines, 'batch');
    expect(again.job).toMatchObject({ created: 0, updated: 3, failed: 0 });
    expect(again.events).toEqual([]);
  });
});
