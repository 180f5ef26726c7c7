import { Type } from '@sinclair/typebox';
import { html } from 'ghtml';
import { getCollectionsByIds } from '../collections/index.js';
import { keptReadsOf, listProductSummaryPage, ProductListQuery } from '../products/index.js';
import { registerListScreen } from './list-screen.js';
import { pricesPerListTable } from './product-prices.js';
import type { ConsoleRouter } from './router.js';
import type { ScreenDeps } from './screen-deps.js';
import { type Cell, facts, jsonBlock, link, outsideLink, table } from './view.js';

/**
 * Products: the API's list without its total (list-screen.ts over listProductSummaryPage of src/products: GET /products'
 * filters, cursors and rows, each product's listed fields as GET /products/{id} sends them, but no count of any kind, so a
 * filtered page is as fast at a million products as at a thousand), and a page per product built from
 * GET /products/{id}, whose JSON it shows as sent.
 */

const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

const money = (value: unknown) => (value === null || value === undefined ? '' : String(value));

function variantsTable(variants: Record<string, unknown>[]): string {
  const rows: Cell[][] = variants.map((variant) => [
    Object.values((variant.attributes as Record<string, string>) ?? {}).join(' / '),
    variant.sku as string,
    variant.barcode as string,
    money(variant.price),
    money(variant.comparePrice ?? variant.salePrice),
    variant.stock as number,
  ]);
  return table('Variants', ['Variant', 'SKU', 'Barcode', 'Price', 'Compare price', 'Stock'], rows);
}

function customFieldsTable(fields: Record<string, unknown> | null | undefined): string {
  const rows: Cell[][] = Object.entries(fields ?? {}).map(([name, value]) => [
    name,
    typeof value === 'string' ? value : JSON.stringify(value),
  ]);
  return table('Custom fields', ['Field', 'Value'], rows);
}

/**
 * A product's images with their alt texts: an image's alt text is the custom field `Image Alt Text #<n>` (n its
 * 1-based place in `images`), where an import of Shopify's CSV puts it (src/platforms/shopify/product-columns.ts).
 */
function imagesTable(images: string[], fields: Record<string, unknown> | null | undefined): string {
  const altOf = (n: number) => {
    const entry = Object.entries(fields ?? {}).find(([name]) => name.trim().toLowerCase() === `image alt text #${n}`);
    return entry === undefined ? '' : String(entry[1]);
  };
  const rows: Cell[][] = images.map((url, index) => [index + 1, { html: outsideLink(url) }, altOf(index + 1)]);
  return table('Images', ['#', 'Image', 'Alt text'], rows);
}

/** Levels and locations read per page (the API's largest page): a store has at most 100 locations. */
const LEVELS_READ = 250;

interface StockAt {
  levels: { variantId: string | null; locationId: string; available: number }[];
  locations: { id: string; name: string; active: boolean }[];
  more: boolean;
}

/**
 * The product's stock per location (CONTRACT §13), from GET /inventory-levels and GET /locations: one row per
 * level (an item with no level somewhere has 0 there), the variant named by its option values.
 */
function stockTable(product: { variants?: { id: string; attributes?: Record<string, string> }[] }, stock: StockAt): string {
  const variantName = new Map((product.variants ?? []).map((variant) => [variant.id, Object.values(variant.attributes ?? {}).join(' / ')]));
  const location = new Map(stock.locations.map((place) => [place.id, place]));
  const rows: Cell[][] = stock.levels.map((level) => {
    const place = location.get(level.locationId);
    const name = place ? `${place.name}${place.active ? '' : ' (inactive)'}` : level.locationId;
    return [level.variantId === null ? 'The product' : (variantName.get(level.variantId) ?? level.variantId), name, level.available];
  });
  const more = stock.more ? `<p>The first ${LEVELS_READ} levels; GET /inventory-levels lists them all.</p>` : '';
  return `${table('Stock per location', ['Item', 'Location', 'Available'], rows)}${more}`;
}

async function stockOf(api: ScreenDeps['api'], session: Parameters<ScreenDeps['api']['get']>[0], productId: string): Promise<StockAt> {
  const [levels, locations] = await Promise.all([
    api.get(session, '/inventory-levels', { productId, limit: String(LEVELS_READ) }),
    api.get(session, '/locations', { limit: String(LEVELS_READ) }),
  ]);
  return { levels: levels.body.data, locations: locations.body.data, more: Boolean(levels.body.pagination?.nextCursor) };
}

const collectionsList = (collections: { id: string; title: string }[]) =>
  table(
    'Collections',
    ['Collection'],
    collections.map((collection) => [link(`/console/collections/${encodeURIComponent(collection.id)}`, collection.title || collection.id)]),
  );

interface ProductParts {
  collections: { id: string; title: string }[];
  stock: StockAt;
  prices: string;
}

// biome-ignore lint/suspicious/noExplicitAny: the API's product, read field by field
function productBody(product: any, apiText: string, { collections, stock, prices }: ProductParts): string {
  const options = (product.options ?? []) as { name: string; values: string[] }[];
  const images = (product.image ?? []) as string[];
  return html`!${facts([
    ['Handle', product.handle],
    ['Status', product.status],
    ['Vendor', product.vendor],
    ['Type', product.productType],
    ['Tags', (product.tags ?? []).join(', ')],
    ['Price', money(product.price)],
    ['Stock', product.totalStock],
    ['Updated', product.updatedAt],
  ])}
<h2>Options</h2>!${table(
    'Options',
    ['Option', 'Values'],
    options.map((option) => [option.name, option.values.join(', ')]),
  )}
<h2>Variants</h2>!${variantsTable(product.variants ?? [])}
<h2>Prices per list</h2>!${prices}
<h2>Stock per location</h2>!${stockTable(product, stock)}
<h2>Images</h2>!${imagesTable(images, product.customFields)}
<h2>Collections</h2>!${collectionsList(collections)}
<h2>Custom fields</h2>!${customFieldsTable(product.customFields)}
!${jsonBlock('API JSON', apiText)}`;
}

export function registerProductsScreen(router: ConsoleRouter, { api, ctx }: ScreenDeps): void {
  // a search's matches kept between requests, the app's own, shared with GET /products (issue 42: a page costs its rows)
  const kept = keptReadsOf(ctx);
  registerListScreen(router, ctx.db, {
    nav: 'Products',
    resource: '/products',
    apiQuery: ProductListQuery,
    filters: [
      { name: 'status', label: 'Status', options: ['active', 'disabled'] },
      { name: 'vendor', label: 'Vendor' },
      { name: 'productType', label: 'Type' },
      { name: 'tag', label: 'Tag' },
      { name: 'collection', label: 'Collection id' },
    ],
    columns: [
      { label: 'Title', value: (product) => product.title },
      { label: 'Status', value: (product) => product.status },
      { label: 'Vendor', value: (product) => product.vendor },
      { label: 'Type', value: (product) => product.productType },
      { label: 'Variants', value: (product) => product.variantCount },
      { label: 'Stock', value: (product) => product.totalStock },
      { label: 'Updated', value: (product) => product.updatedAt },
    ],
    // each product's listed fields alone (ProductSummary), not its whole document parsed (docs/console.md)
    async page(db, storeId, query) {
      const { summaries, nextCursor, prevCursor } = await listProductSummaryPage(db, storeId, query, kept);
      return { records: summaries, nextCursor, prevCursor };
    },
  });

  router.page('/products/:id', { params: IdParams }, async ({ params, session }) => {
    const answer = await api.get(session, `/products/${encodeURIComponent(params.id)}`);
    // its manual collections (the product's selectedCollection; a smart collection's members are computed on reading it)
    const collections = await getCollectionsByIds(ctx.db, session.storeId, answer.body.data.selectedCollection ?? []);
    const stock = await stockOf(api, session, answer.body.data.id);
    const prices = await pricesPerListTable(ctx.db, session.storeId, answer.body.data);
    return {
      title: answer.body.data.title,
      nav: 'Products',
      body: productBody(answer.body.data, answer.text, { collections, stock, prices }),
    };
  });
}
