import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, setupTestApp, type TestContext } from '../test/helpers.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

describe("the router's own errors", () => {
  it('answer in the envelope with their own status', async () => {
    const store = await t.newStore();
    for (const url of ['/orders/%E0%A4%A', '/customers/%zz']) {
      const error = expectError(await t.call(store, 'GET', url), 400, 'BAD_REQUEST');
      expect(error.details).toEqual([]);
    }
    expectError(await t.call(store, 'GET', `/orders/${'x'.repeat(201)}`), 414, 'URI_TOO_LONG');
    expectError(await t.call(store, 'GET', `/orders/${'x'.repeat(200)}`), 404, 'NOT_FOUND');
  });
});
