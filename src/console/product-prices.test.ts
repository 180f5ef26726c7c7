import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordStatements, setupTestApp, type TestContext } from '../../test/helpers.js';
import { signIn } from '../../test/support/console.fixtures.js';

/** The console's product page shows each variant's (and a simple product's) fixed prices per list (CONTRACT §12, §14). */

let t: TestContext;
const statements: string[] = [];
beforeAll(async () => {
  t = await setupTestApp({}, recordStatements(statements));
});
afterAll(() => t.close());

const caption = '<caption class="visually-hidden">Prices per list</caption>';

describe("the console's prices per list", () => {
  it("shows a variant's fixed price in each list, a list name as text, one statement for them, never another store's", async () => {
    const store = await t.newStore();
    const other = await t.newStore();
    const created = await t.call(store, 'POST', '/products', { title: 'Tee', price: 10, options: [{ name: 'Size', values: ['S', 'M'] }] });
    expect(created.status).toBe(201);
    const productId = created.body.data.id;
    const [small, medium] = created.body.data.variants as { id: string; attributes: Record<string, string> }[];
    const evil = (await t.call(store, 'POST', '/price-lists', { name: '<script>alert(1)</script> Wholesale', currency: 'EUR' })).body.data
      .id;
    const japan = (await t.call(store, 'POST', '/price-lists', { name: 'Japan', currency: 'JPY' })).body.data.id;
    await t.call(store, 'POST', '/price-lists', { name: 'Empty list', currency: 'GBP' });
    const put = await t.call(store, 'PUT', `/price-lists/${evil}/prices`, {
      items: [{ productId, variantId: small.id, price: 8.5, comparePrice: 9.99 }],
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(
      (await t.call(store, 'PUT', `/price-lists/${japan}/prices`, { items: [{ productId, variantId: medium.id, price: 1500 }] })).status,
    ).toBe(200);
    // another store's list of the same name, with a price of its own product
    const theirs = (await t.call(other, 'POST', '/products', { title: 'Theirs', price: 1 })).body.data.id;
    const foreign = (await t.call(other, 'POST', '/price-lists', { name: 'Foreign list', currency: 'EUR' })).body.data.id;
    expect((await t.call(other, 'PUT', `/price-lists/${foreign}/prices`, { items: [{ productId: theirs, price: 0.5 }] })).status).toBe(200);

    const console = await signIn(t.app, store);
    const before = statements.length;
    const page = await console.get(`/console/products/${productId}`);
    expect(page.status).toBe(200);
    const reads = statements.slice(before).filter((text) => /\bprice_list_prices\b/.test(text));
    expect(reads).toHaveLength(1);
    expect(page.body).toContain('<h2>Prices per list</h2>');
    expect(page.body).toContain(caption);
    expect(page.body).toContain(
      `<td>${small.attributes.Size}</td><td>&#60;script&#62;alert(1)&#60;/script&#62; Wholesale</td><td>EUR</td><td>8.5</td><td>9.99</td>`,
    );
    expect(page.body).toContain(`<td>${medium.attributes.Size}</td><td>Japan</td><td>JPY</td><td>1500</td><td></td>`);
    expect(page.body).not.toContain('<script>alert');
    expect(page.body).not.toContain('Foreign list');
    expect(page.body).not.toContain('Empty list');
  });

  it("shows a simple product's prices as the product's, and says so when it has none", async () => {
    const store = await t.newStore();
    const simple = (await t.call(store, 'POST', '/products', { title: 'Mug', price: 4 })).body.data.id;
    const bare = (await t.call(store, 'POST', '/products', { title: 'Plate', price: 3 })).body.data.id;
    const list = (await t.call(store, 'POST', '/price-lists', { name: 'Retail UK', currency: 'GBP' })).body.data.id;
    expect((await t.call(store, 'PUT', `/price-lists/${list}/prices`, { items: [{ productId: simple, price: 3.2 }] })).status).toBe(200);
    const console = await signIn(t.app, store);
    const page = await console.get(`/console/products/${simple}`);
    expect(page.body).toContain('<td>The product</td><td>Retail UK</td><td>GBP</td><td>3.2</td><td></td>');
    const none = await console.get(`/console/products/${bare}`);
    expect(none.status).toBe(200);
    expect(none.body).toContain('<p class="muted">Prices per list: none.</p>');
  });
});
