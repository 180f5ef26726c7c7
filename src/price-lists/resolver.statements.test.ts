import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, recordStatements, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { etagOf } from '../shared/index.js';

/**
 * What the resolver costs in statements (issue 40): GET /prices and GET /products/{id}?currency= read
 * everything pricing needs in one statement (resolver.sql.ts, selectPricing), and the priced product is sent
 * as a document (src/products/priced.ts); concurrent priced GETs share their statement (src/reads/batched-reads.ts): its ETag is the one `etagOf` gives its data, If-None-Match answers
 * 304, and a missing product answers 404 before a bad currency or customer answers 400.
 */

let t: TestContext;
const statements: string[] = [];
beforeAll(async () => {
  t = await setupTestApp({}, recordStatements(statements));
});
afterAll(() => t.close());

/** The statements a request sends that read price lists or their prices. */
async function pricingStatements(read: () => Promise<unknown>): Promise<string[]> {
  const before = statements.length;
  await read();
  return statements.slice(before).filter((text) => /\bprice_list/i.test(text));
}

async function post(store: TestStore, path: string, body: object) {
  const res = await t.call(store, 'POST', path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

/** A shirt in two sizes (20.00), a list 10% off and a fixed EUR price for the small one. */
async function shop() {
  const store = await t.newStore();
  const shirt = await post(store, '/products', { title: 'Shirt', price: 20, options: [{ name: 'Size', values: ['S', 'M'] }] });
  const sale = await post(store, '/price-lists', { name: 'Sale', currency: 'USD', adjustment: { type: 'percentageDecrease', value: 10 } });
  const eur = await post(store, '/price-lists', { name: 'EU', currency: 'EUR' });
  const small = shirt.variants[0].id as string;
  const put = await t.call(store, 'PUT', `/price-lists/${eur.id}/prices`, {
    items: [{ productId: shirt.id, variantId: small, price: 17.5 }],
  });
  expect(put.status).toBe(200);
  return { store, shirt, sale, eur, small };
}

describe('the resolver in one statement (issue 40)', () => {
  it('GET /prices and a priced GET /products/{id} read the lists and their prices with one statement', async () => {
    const { store, shirt } = await shop();
    const customer = await post(store, '/customers', { userName: 'buyer', password: 'long-secret-1', tags: ['vip'] });
    for (const url of [
      `/prices?productIds=${shirt.id}&currency=EUR`,
      `/prices?productIds=${shirt.id}&customerId=${customer.id}`,
      `/products/${shirt.id}?currency=EUR`,
      `/products/${shirt.id}?customerId=${customer.id}`,
    ]) {
      let status = 0;
      const sent = await pricingStatements(async () => {
        status = (await t.call(store, 'GET', url)).status;
      });
      expect(status, url).toBe(200);
      expect(sent, url).toHaveLength(1);
    }
  });

  it('concurrent priced GETs of a store share a statement per currency and buyer, each answered with its own prices', async () => {
    const { store, shirt, sale, eur, small } = await shop();
    const mugs: string[] = [];
    for (let i = 0; i < 4; i++) mugs.push((await post(store, '/products', { title: `Mug ${i}`, price: 10 + i })).id);
    await t.call(store, 'GET', `/products/${mugs[0]}?currency=USD`);
    const calls = [...mugs, shirt.id].flatMap((id) => ['USD', 'EUR'].map((currency) => ({ id, currency })));
    // biome-ignore lint/suspicious/noExplicitAny: JSON bodies
    let replies: { status: number; body: any }[] = [];
    const sent = await pricingStatements(async () => {
      replies = await Promise.all(calls.map(({ id, currency }) => t.call(store, 'GET', `/products/${id}?currency=${currency}`)));
    });
    expect(sent.length).toBeLessThan(calls.length);
    calls.forEach(({ id, currency }, k) => {
      const data = replies[k].body.data;
      expect([replies[k].status, data.id]).toEqual([200, id]);
      const priced = data.variants.length
        ? data.variants.map((variant: { resolvedPrice: unknown }) => variant.resolvedPrice)
        : [data.resolvedPrice];
      if (id === shirt.id && currency === 'EUR') expect(priced.map((row: { price: number }) => row.price)).toEqual([17.5, null]);
      else if (id === shirt.id) expect(priced.map((row: { priceListId: string }) => row.priceListId)).toEqual([sale.id, sale.id]);
      else if (currency === 'USD')
        expect(priced).toEqual([
          {
            productId: id,
            variantId: null,
            currency,
            price: Number(((10 + mugs.indexOf(id)) * 0.9).toFixed(2)),
            comparePrice: null,
            priceListId: sale.id,
            basis: 'adjustment',
          },
        ]);
      else
        expect(priced).toEqual([
          { productId: id, variantId: null, currency, price: null, comparePrice: null, priceListId: null, basis: 'unavailable' },
        ]);
    });
    expect(small).toBe(shirt.variants[0].id);
    expect(eur.currency).toBe('EUR');
  });

  it('the priced product is its data as canonical JSON: ETag of etagOf, 304 on If-None-Match, prices as resolved', async () => {
    const { store, shirt, sale, eur, small } = await shop();
    const res = await t.call(store, 'GET', `/products/${shirt.id}?currency=USD`);
    expect(res.status).toBe(200);
    expect(res.headers.etag).toBe(etagOf(res.body.data));
    expect(
      res.body.data.variants.map((variant: { resolvedPrice: { price: number; priceListId: string } }) => variant.resolvedPrice),
    ).toEqual([
      { productId: shirt.id, variantId: small, currency: 'USD', price: 18, comparePrice: null, priceListId: sale.id, basis: 'adjustment' },
      {
        productId: shirt.id,
        variantId: shirt.variants[1].id,
        currency: 'USD',
        price: 18,
        comparePrice: null,
        priceListId: sale.id,
        basis: 'adjustment',
      },
    ]);
    const { resolvedPrice: _, ...plainVariant } = res.body.data.variants[0];
    expect(plainVariant).toEqual((await t.call(store, 'GET', `/products/${shirt.id}`)).body.data.variants[0]);
    const again = await t.call(store, 'GET', `/products/${shirt.id}?currency=USD`, undefined, {
      'if-none-match': res.headers.etag as string,
    });
    expect(again.status).toBe(304);
    // another currency is another representation, with its own ETag
    const inEur = await t.call(store, 'GET', `/products/${shirt.id}?currency=EUR`);
    expect(inEur.body.data.variants[0].resolvedPrice).toMatchObject({ price: 17.5, priceListId: eur.id, basis: 'fixed' });
    expect(inEur.headers.etag).not.toBe(res.headers.etag);
  });

  it('a missing product is a 404 whatever the currency or customer; a bad one of a product there is a 400', async () => {
    const { store, shirt } = await shop();
    const missing = 'f'.repeat(24);
    expectError(await t.call(store, 'GET', `/products/${missing}?currency=XYZ`), 404, 'NOT_FOUND');
    expectError(await t.call(store, 'GET', `/products/${missing}?customerId=${missing}`), 404, 'NOT_FOUND');
    const badCurrency = expectError(await t.call(store, 'GET', `/products/${shirt.id}?currency=XYZ`), 400, 'VALIDATION_ERROR');
    expect(badCurrency.details[0]).toMatchObject({ field: 'currency', in: 'query' });
    const badCustomer = expectError(await t.call(store, 'GET', `/products/${shirt.id}?customerId=${missing}`), 400, 'VALIDATION_ERROR');
    expect(badCustomer.details[0]).toMatchObject({ field: 'customerId', in: 'query' });
  });
});
