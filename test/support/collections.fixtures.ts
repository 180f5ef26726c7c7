import { expect } from 'vitest';
import type { TestContext, TestStore } from '../helpers.js';

/** Test helpers of the collections API tests (not a test file itself). */

export interface Rule {
  field: string;
  operator: string;
  value: string;
}

export const idsOf = (items: { id: string }[]) => items.map((item) => item.id);

export async function newCollection(t: TestContext, store: TestStore, body: Record<string, unknown>) {
  const reply = await t.call(store, 'POST', '/collections', body);
  if (reply.status !== 201) throw new Error(`POST /collections: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body.data;
}

export async function newProduct(t: TestContext, store: TestStore, body: Record<string, unknown>) {
  const reply = await t.call(store, 'POST', '/products', body);
  if (reply.status !== 201) throw new Error(`POST /products: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body.data;
}

export async function smart(t: TestContext, store: TestStore, conditions: Rule[], matchType?: string) {
  return newCollection(t, store, { title: 'Smart', collectionType: 'smart', conditions, ...(matchType ? { matchType } : {}) });
}

/** The ids of the collection's member products, in the given sort (all on one page). */
export async function memberIds(t: TestContext, store: TestStore, collectionId: string, query = 'sort=title&limit=250') {
  const reply = await t.call(store, 'GET', `/collections/${collectionId}/products?${query}`);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return idsOf(reply.body.data);
}

export async function apiKey(t: TestContext, store: TestStore, scopes: string[]): Promise<string> {
  const reply = await t.call(store, 'POST', '/api-keys', { name: `key ${scopes.join(' ')}`, scopes });
  if (reply.status !== 201) throw new Error(`POST /api-keys: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body.data.key;
}
