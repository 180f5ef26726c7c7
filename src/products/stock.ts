import type { Db, Tx } from '../db/index.js';
import { noteProductsChanged } from './derived.js';
import { addProductStock, addStock, findStockBySku, lockProductStockById, lockVariantsById, type StockRow } from './stock.sql.js';

/** One line of a checkout: a variant, or a simple product, named by its product and SKU, and a quantity. */
export interface StockLine {
  productId: string;
  sku: string;
  quantity: number;
}

/**
 * What a checkout takes from one stock (its lines' quantities summed); a restock puts exactly this back.
 * A variant's stock names its `variantId`; a simple product's stock (its totalStock) has none.
 */
export interface StockMove {
  variantId?: string;
  productId: string;
  quantity: number;
}

/** Lines (by index) naming no variant or simple product, or two variants sharing the SKU. */
export interface UnresolvedLines {
  unknown: number[];
  ambiguous: number[];
}

/** Why a take failed, per stock (its target: stockTarget): short (with what it has), or gone since the lines were resolved. */
export interface StockShortage {
  short: { target: string; available: number }[];
  gone: string[];
}

/** The stock a move takes from: its variant's id, or its simple product's id (ids are unique across both). */
export const stockTarget = (move: Pick<StockMove, 'variantId' | 'productId'>) => move.variantId ?? move.productId;

const pairKey = (productId: string, sku: string) => JSON.stringify([productId, sku]);

/** Quantities summed per stock, in target order (`rows[i]` is line i's variant or simple product). */
function movesOf(lines: StockLine[], rows: StockRow[]): StockMove[] {
  const moves = new Map<string, StockMove>();
  lines.forEach((line, index) => {
    const { id, product_id: productId, simple } = rows[index];
    const move = moves.get(id) ?? { ...(simple ? {} : { variantId: id }), productId, quantity: 0 };
    moves.set(id, { ...move, quantity: move.quantity + line.quantity });
  });
  return [...moves.values()].sort((a, b) => (stockTarget(a) < stockTarget(b) ? -1 : 1));
}

/**
 * The variant or simple product of each line and what a checkout would take from each, or the lines that
 * name none (or more than one variant). Reads only: nothing is locked until `takeStock`.
 */
export async function resolveStock(
  db: Db,
  storeId: string,
  lines: StockLine[],
): Promise<{ moves: StockMove[]; lineTargets: string[] } | UnresolvedLines> {
  const productIds = [...new Set(lines.map((line) => line.productId))];
  const skus = [...new Set(lines.map((line) => line.sku))];
  const rows = await findStockBySku(db, storeId, productIds, skus);
  const byPair = new Map<string, StockRow[]>();
  for (const row of rows) {
    const key = pairKey(row.product_id, row.sku ?? '');
    byPair.set(key, [...(byPair.get(key) ?? []), row]);
  }
  const matches = lines.map((line) => byPair.get(pairKey(line.productId, line.sku)) ?? []);
  const unknown = matches.flatMap((found, index) => (found.length === 0 ? [index] : []));
  const ambiguous = matches.flatMap((found, index) => (found.length > 1 ? [index] : []));
  if (unknown.length || ambiguous.length) return { unknown, ambiguous };
  const targets = matches.map((found) => found[0]);
  return { moves: movesOf(lines, targets), lineTargets: targets.map((row) => row.id) };
}

const columnsOf = (moves: StockMove[], sign: 1 | -1) => [moves.map(stockTarget), moves.map((move) => sign * move.quantity)] as const;

const split = (moves: StockMove[]) => ({
  variants: moves.filter((move) => move.variantId !== undefined),
  products: moves.filter((move) => move.variantId === undefined),
});

/**
 * All or nothing: takes every move's quantity, or reports why not (the caller's transaction must then
 * roll back: the stocks that had enough were already decremented). Hence `Tx`. Variants first, then simple
 * products, each in id order: the one order every take and return uses, so two checkouts never deadlock.
 */
export async function takeStock(trx: Tx, storeId: string, moves: StockMove[], at: Date): Promise<StockShortage | null> {
  const { variants, products } = split(moves);
  const shortages = [
    await takeFrom(variants, {
      lock: (ids) => lockVariantsById(trx, storeId, ids),
      add: (ids, d) => addStock(trx, storeId, ids, d, at),
    }),
    await takeFrom(products, {
      lock: (ids) => lockProductStockById(trx, storeId, ids),
      add: (ids, d) => addProductStock(trx, storeId, ids, d, at),
    }),
  ];
  if (shortages.every((shortage) => shortage === null)) {
    noteProductsChanged(
      trx,
      storeId,
      moves.map((move) => move.productId),
    );
    return null;
  }
  return { short: shortages.flatMap((s) => s?.short ?? []), gone: shortages.flatMap((s) => s?.gone ?? []) };
}

interface StockTable {
  lock: (ids: string[]) => Promise<StockRow[]>;
  add: (ids: string[], deltas: number[]) => Promise<string[]>;
}

/** The take of one kind of stock (variants, or simple products): one guarded UPDATE; what failed, read back. */
async function takeFrom(moves: StockMove[], table: StockTable): Promise<StockShortage | null> {
  if (moves.length === 0) return null;
  const [ids, deltas] = columnsOf(moves, -1);
  if (moves.length > 1) await table.lock(ids);
  const changed = new Set(await table.add(ids, deltas));
  if (changed.size === moves.length) return null;
  const failed = ids.filter((id) => !changed.has(id));
  const rows = await table.lock(failed);
  const found = new Set(rows.map((row) => row.id));
  return { short: rows.map((row) => ({ target: row.id, available: row.stock })), gone: failed.filter((id) => !found.has(id)) };
}

/** Puts what a checkout took back, on the variants and products that still exist (a deleted one has no stock to return to). */
export async function returnStock(trx: Tx, storeId: string, moves: StockMove[], at: Date): Promise<void> {
  const { variants, products } = split(moves);
  if (variants.length > 0) {
    const [ids, deltas] = columnsOf(variants, 1);
    if (variants.length > 1) await lockVariantsById(trx, storeId, ids);
    await addStock(trx, storeId, ids, deltas, at);
  }
  if (products.length > 0) {
    const [ids, deltas] = columnsOf(products, 1);
    if (products.length > 1) await lockProductStockById(trx, storeId, ids);
    await addProductStock(trx, storeId, ids, deltas, at);
  }
  // A product deleted since the checkout has no event: its loader finds nothing and the feed skips it.
  noteProductsChanged(
    trx,
    storeId,
    moves.map((move) => move.productId),
  );
}
