import type { Product } from '../../products/index.js';
import type { CustomFields } from '../../shared/index.js';
import {
  INVENTORY_TRACKER,
  marketPriceHeaders,
  parseImageFieldKey,
  SHOPIFY_PRODUCT_COLUMNS,
  type ShopifyTarget,
  shopifyProductColumn,
} from './product-columns.js';

/**
 * Products as Shopify's current product CSV (the header generation of product-columns.ts's `current`
 * names): a row per variant, then a row per image beyond them (a variant row carries the image of its
 * place too, as Shopify's own export does); a simple product is one `Title` / `Default Title` row. The
 * handle is on every row, the product's fields on the first. A product with more than three options
 * joins the third and later ones into Option3 (names and values joined with ` / `). Every customFields
 * key that names a Shopify column (product-columns.ts, an image key `<header> #<n>`, a metafield, a
 * market price or Google Shopping column) goes back to that column: the product's on the first row (or
 * its image's row), a variant's on its row, filling cells no field wrote.
 */

const header = (entry: { current: string | null; legacy: string | null }) => (entry.current ?? entry.legacy) as string;
const TABLE_COLUMNS = SHOPIFY_PRODUCT_COLUMNS.map(header);
const col = (target: string, option?: number) =>
  header(
    SHOPIFY_PRODUCT_COLUMNS.find((entry) => entry.target === target && entry.option === option) as (typeof SHOPIFY_PRODUCT_COLUMNS)[number],
  );
const C = {
  title: col('title'),
  handle: col('handle'),
  description: col('description'),
  vendor: col('vendor'),
  productType: col('productType'),
  tags: col('tags'),
  metaTitle: col('metaTitle'),
  metaDescription: col('metaDescription'),
  sku: col('sku'),
  barcode: col('barcode'),
  price: col('price'),
  salePrice: col('salePrice'),
  stock: col('stock'),
  weightGrams: col('weightGrams'),
  image: col('image'),
  imageSrc: col('imageSrc'),
  imagePosition: col('imagePosition'),
  optionName: [1, 2, 3].map((n) => col('optionName', n)),
  optionValue: [1, 2, 3].map((n) => col('optionValue', n)),
};
const STATUS = SHOPIFY_PRODUCT_COLUMNS.filter((entry) => entry.target === 'status').map(header);
const [PUBLISHED, STATUS_COLUMN] = [
  STATUS.find((name) => /publish/i.test(name)) as string,
  STATUS.find((name) => /^status$/i.test(name)) as string,
];

/**
 * The columns whose cells the import keeps in customFields: the customFields columns, and two field columns
 * whose cell the import parks there (a compare-at price below the price, a simple product's variant image:
 * product-variants.ts). A key naming any other field column (WooCommerce's `Type`, `SKU`, `Tags`) is not
 * that column's value: the field is, so the key is left out rather than written into it.
 */
const KEPT_TARGETS: ReadonlySet<ShopifyTarget> = new Set(['customFields', 'salePrice', 'image']);

/** Shopify columns the table does not list: metafields, a market's prices and inclusion, Google Shopping. */
const SHOPIFY_SHAPED = /\((product|variant)\.metafields\.|^(price|compare at price|included) \/|^google shopping \//i;

/** Where a customFields key goes: its column, and for an image's cell the image (from 1); null: not a Shopify column. */
export function productKeyColumn(key: string): { column: string; image?: number } | null {
  const entry = shopifyProductColumn(key);
  if (entry) return KEPT_TARGETS.has(entry.target) ? { column: header(entry) } : null;
  const image = parseImageFieldKey(key);
  const imageEntry = image ? shopifyProductColumn(image.header) : undefined;
  if (image && imageEntry?.level === 'image') return { column: header(imageEntry), image: image.n };
  return SHOPIFY_SHAPED.test(key.trim()) ? { column: key.trim() } : null;
}

/**
 * The header row: the current generation's columns, the Shopify columns the store's customFields keys name
 * beyond them, then each price list's market columns (`Price / <name>`, `Compare-at price / <name>`).
 */
export function shopifyProductColumns(customFieldKeys: Iterable<string>, listNames: readonly string[] = []): string[] {
  const seen = new Set(TABLE_COLUMNS.map((name) => name.toLowerCase()));
  const extra = new Set<string>();
  for (const key of customFieldKeys) {
    const column = productKeyColumn(key)?.column;
    if (column && !seen.has(column.toLowerCase())) {
      seen.add(column.toLowerCase());
      extra.add(column);
    }
  }
  const markets = listNames.flatMap((name) => Object.values(marketPriceHeaders(name))).filter((column) => !seen.has(column.toLowerCase()));
  return [...TABLE_COLUMNS, ...[...extra].sort(), ...markets];
}

/** A price list the export writes the market columns of. */
export interface MarketList {
  id: string;
  name: string;
}

/** An item's fixed prices per list id, amounts as text with the list's currency's decimals. */
export type MarketPrices = ReadonlyMap<string, ReadonlyMap<string, { price: string; comparePrice: string | null }>>;

type Value = string | number | boolean | null | undefined;
/** A row being built: its cells in column order, '' where nothing was written; a number column's cell a number. */
type Row = (string | number)[];
const put = (row: Row, at: number, value: Value) => {
  if (value !== null && value !== undefined && value !== '') row[at] = typeof value === 'number' ? value : String(value);
};

const kept = (fields: CustomFields, column: string): string | undefined => {
  for (const [key, value] of Object.entries(fields)) {
    const entry = shopifyProductColumn(key);
    if (entry && header(entry) === column) return String(value);
  }
  return undefined;
};
const falseCell = (cell: string | undefined) => cell !== undefined && /^(false|no|0)$/i.test(cell.trim());

/** Option names or values, the third and later ones joined into Option3. */
const joinedOptions = (items: string[]) => (items.length > 3 ? [...items.slice(0, 2), items.slice(2).join(' / ')] : items);

interface Sellable {
  sku: string | null;
  price: number | null;
  salePrice: number | null;
  stock: number | null;
  barcode: string | null;
  weightGrams: number | null;
  image?: string | null;
}

/**
 * Writes the rows of products under one header row (the export's): every column's position is found once,
 * and each customFields key's column once per key, so a product costs its cells and nothing more.
 */
export class ShopifyProductWriter {
  readonly columns: string[];
  private readonly position = new Map<string, number>();
  private readonly keys = new Map<string, { at: number; image?: number } | null>();
  private readonly at: Record<Exclude<keyof typeof C, 'optionName' | 'optionValue'>, number> & {
    optionName: number[];
    optionValue: number[];
  };
  private readonly status: number;
  private readonly published: number;
  private readonly tracker: number;
  private readonly markets: { id: string; price: number; compareAt: number }[];

  constructor(customFieldKeys: Iterable<string>, lists: readonly MarketList[] = []) {
    this.columns = shopifyProductColumns(
      customFieldKeys,
      lists.map((list) => list.name),
    );
    this.columns.forEach((column, i) => {
      if (!this.position.has(column.toLowerCase())) this.position.set(column.toLowerCase(), i);
    });
    const of = (column: string) => this.position.get(column.toLowerCase()) as number;
    const { optionName, optionValue, ...single } = C;
    this.at = {
      ...(Object.fromEntries(Object.entries(single).map(([name, column]) => [name, of(column)])) as Record<keyof typeof single, number>),
      optionName: optionName.map(of),
      optionValue: optionValue.map(of),
    };
    [this.status, this.published, this.tracker] = [of(STATUS_COLUMN), of(PUBLISHED), of(INVENTORY_TRACKER)];
    this.markets = lists.map((list) => {
      const headers = marketPriceHeaders(list.name);
      return { id: list.id, price: of(headers.price), compareAt: of(headers.compareAt) };
    });
  }

  /** The product's rows, cells in the order of `columns`; `prices`: its items' fixed prices in the lists, by item id. */
  rows(product: Product, prices: MarketPrices = new Map()): Row[] {
    const rows: Row[] = [];
    const row = (n: number) => {
      while (rows.length <= n) rows.push(new Array<string | number>(this.columns.length).fill(''));
      return rows[n];
    };
    this.productCells(product, row(0));
    const { at } = this;
    if (product.variants.length === 0) {
      put(row(0), at.optionName[0], 'Title');
      put(row(0), at.optionValue[0], 'Default Title');
      const { sku, price, comparePrice, totalStock, barcode, weightGrams } = product;
      this.sellableCells({ sku, price, salePrice: comparePrice, stock: totalStock, barcode, weightGrams }, product.customFields, row(0));
      this.marketCells(prices.get(product.id), row(0));
    } else {
      const names = product.options.map((option) => option.name);
      joinedOptions(names).forEach((name, i) => {
        put(row(0), at.optionName[i], name);
      });
      product.variants.forEach((variant, n) => {
        const cells = row(n);
        joinedOptions(names.map((name) => variant.attributes[name] ?? '')).forEach((value, i) => {
          put(cells, at.optionValue[i], value);
        });
        this.sellableCells(variant, variant.customFields, cells);
        this.marketCells(prices.get(variant.id), cells);
        this.customCells(variant.customFields, cells, row);
      });
    }
    product.image.forEach((src, i) => {
      put(row(i), at.imageSrc, src);
      put(row(i), at.imagePosition, i + 1);
    });
    this.customCells(product.customFields, row(0), row);
    for (const cells of rows) cells[at.handle] = product.handle;
    return rows;
  }

  private productCells(product: Product, row: Row): void {
    const { at } = this;
    put(row, at.title, product.title);
    put(row, at.description, product.description);
    put(row, at.vendor, product.vendor);
    put(row, at.productType, product.productType);
    put(row, at.tags, product.tags.join(', '));
    put(row, at.metaTitle, product.metaTitle);
    put(row, at.metaDescription, product.metaDescription);
    this.statusCells(product, row);
  }

  /**
   * Status and Published: the cells the import kept while they still say what the product's status says
   * (draft and archived stay apart, an active but unpublished product stays so), and only those (a file
   * with Published alone gets no Status back, so a re-import keeps the same keys); else `active` / `draft`
   * and TRUE / FALSE.
   */
  private statusCells(product: Product, row: Row): void {
    const disabled = product.status === 'disabled';
    const status = kept(product.customFields, STATUS_COLUMN);
    const published = kept(product.customFields, PUBLISHED);
    const keptDisabled = (status !== undefined && status.toLowerCase() !== 'active') || falseCell(published);
    const agree = disabled === keptDisabled && (status !== undefined || published !== undefined);
    if (agree) {
      put(row, this.status, status);
      put(row, this.published, published);
      return;
    }
    put(row, this.status, disabled ? 'draft' : 'active');
    put(row, this.published, disabled && published ? published : disabled ? 'FALSE' : 'TRUE');
  }

  /**
   * The sellable's cells. Stock, only what the record has: an imported record's tracker cell goes back as it
   * was, and with an empty one (the source did not track) no tracker is invented and the quantity is
   * written only when it is not 0; a record without the key (created here) is Storefront's own count,
   * tracked by `shopify` with its quantity.
   */
  private sellableCells(item: Sellable, fields: CustomFields, row: Row): void {
    const { at } = this;
    const tracker = kept(fields, INVENTORY_TRACKER);
    const counted = item.stock !== null && (tracker !== '' || item.stock !== 0);
    put(row, this.tracker, tracker ?? (counted ? 'shopify' : null));
    put(row, at.sku, item.sku);
    put(row, at.price, item.price);
    put(row, at.salePrice, item.salePrice);
    put(row, at.stock, counted ? item.stock : null);
    put(row, at.barcode, item.barcode);
    put(row, at.weightGrams, item.weightGrams);
    put(row, at.image, item.image);
  }

  /** An item's fixed prices into its lists' market columns. */
  private marketCells(prices: ReadonlyMap<string, { price: string; comparePrice: string | null }> | undefined, row: Row): void {
    if (!prices) return;
    for (const market of this.markets) {
      const fixed = prices.get(market.id);
      put(row, market.price, fixed?.price);
      put(row, market.compareAt, fixed?.comparePrice);
    }
  }

  /** customFields into the cells no field wrote: an image's cell in the row of that image (`row(n - 1)`). */
  private customCells(fields: CustomFields, cells: Row, row: (n: number) => Row): void {
    for (const key in fields) {
      let target = this.keys.get(key);
      if (target === undefined) {
        const found = productKeyColumn(key);
        target = found ? { at: this.position.get(found.column.toLowerCase()) as number, image: found.image } : null;
        this.keys.set(key, target);
      }
      if (target === null || target.at === undefined) continue;
      const into = target.image === undefined ? cells : row(target.image - 1);
      if (into[target.at] === '') put(into, target.at, fields[key]);
    }
  }
}
