/**
 * From a fresh checkout to an imported product through the typed client (docs/client.md, "Quick start"):
 *
 *   STOREFRONT_URL=http://127.0.0.1:3000/api/v1 STOREFRONT_API_KEY=sfk_… npx tsx examples/client-quickstart.ts
 *
 * In another project that installed this one, the import is `from 'storefront/client'` (built on install).
 */
import { createStorefrontClient, StorefrontError, unwrap } from '../src/client/index.js';

const apiKey = process.env.STOREFRONT_API_KEY;
if (!apiKey) throw new Error('set STOREFRONT_API_KEY (npx storefront api-keys create --store acme --name quickstart)');
const client = createStorefrontClient({ baseUrl: process.env.STOREFRONT_URL ?? 'http://127.0.0.1:3000/api/v1', apiKey });

// Writes carry an Idempotency-Key made by the client: a retry after a lost answer never creates a second product.
const handle = `quickstart-tee-${Date.now()}`;
const product = unwrap(
  await client.POST('/products', {
    body: { title: 'Quickstart tee', handle, options: [{ name: 'Size', values: ['S', 'M'] }] },
  }),
);
console.log('created', product.id, product.handle);

try {
  unwrap(await client.POST('/products', { body: { title: 'Twin', handle } }));
} catch (error) {
  // A typed error: status, code, message, details, requestId.
  if (!(error instanceof StorefrontError)) throw error;
  console.log('refused as expected:', error.status, error.code, error.details[0]?.field);
}

let count = 0;
for await (const item of client.items('/products', { query: { limit: 100 } })) count += item.title ? 1 : 0;
console.log(`the store has ${count} products`);
