import { sql } from 'kysely';
import { expect } from 'vitest';
import { rebuildProductDocuments } from '../../src/products/products.documents.js';
import type { TestContext, TestStore } from '../helpers.js';

/**
 * A store's product list long enough for deep pages, with ties everywhere: one product made through the API, then
 * `rows` copies of its row with few distinct titles (`<word> 0`–`<word> 96`), prices (every seventh null) and
 * times, and each copy's stored document. The tests of deep pages check every sort against it.
 */
export async function seedTiedProducts(t: TestContext, store: TestStore, word: string, rows: number): Promise<void> {
  const reply = await t.call(store, 'POST', '/products', { title: `${word} 0`, price: 1 });
  expect(reply.status).toBe(201);
  const slug = word.toLowerCase();
  await sql`INSERT INTO products (store_id, id, title, handle, price, status, return_config, created_at, updated_at)
    SELECT p.store_id, lpad(to_hex(g), 24, '0'), ${word} || ' ' || (g % 97), ${slug} || '-' || g, CASE WHEN g % 7 = 0 THEN NULL ELSE g % 13 END,
      p.status, p.return_config, p.created_at - (g % 50) * interval '1 minute', p.updated_at - (g % 50) * interval '1 minute'
    FROM products p CROSS JOIN generate_series(1, ${rows}) AS g WHERE p.store_id = ${store.id}`.execute(t.database.db);
  await rebuildProductDocuments(t.database.db, store.id);
}
