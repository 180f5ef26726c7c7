import type { Db, Tx } from '../db/index.js';
import { noteProductsChanged } from './derived.js';
import { addStock, findVariantsBySku, lockVariantsById, type StockRow } from './stock.sql.js';

/** One line of a checkout: a variant named by its product and SKU, and a quantity. */
export interface StockLine {
  productId: string;
  sku: string;
  quantity: number;
}

/** What a checkout takes from one variant (its lines' quantities summed); a restock puts exactly this back. */
export interface StockMove {
  variantId: string;
  productId: string;
  quantity: number;
}

/** Lines (by index) naming no variant, or two variants sharing the SKU. */
export interface UnresolvedLines {
  unknown: number[];
  ambiguous: number[];
}

/** Why a take failed, per variant: short (with what it has), or deleted since the lines were resolved. */
export interface StockShortage {
  short: { variantId: string; available: number }[];
  gone: string[];
}

const pairKey = (productId: string, sku: string) => JSON.stringify([productId, sku]);

/** Quantities summed per variant, in variant id order (`variants[i]` is line i's variant). */
function movesOf(lines: StockLine[], variants: StockRow[]): StockMove[] {
  const moves = new Map<string, StockMove>();
  lines.forEach((line, index) => {
    const { id, product_id: productId } = variants[index];
    const move = moves.get(id) ?? { variantId: id, productId, quantity: 0 };
    moves.set(id, { ...move, quantity: move.quantity + line.quantity });
  });
  return [...moves.values()].sort((a, b) => (a.variantId < b.variantId ? -1 : 1));
}

/**
 * The variant of each line and what a checkout would take from each variant, or the lines that name no
 * (or more than one) variant. Reads only: nothing is locked until `takeStock`.
 */
export async function resolveStock(
  db: Db,
  storeId: string,
  lines: StockLine[],
): Promise<{ moves: StockMove[]; lineVariants: string[] } | UnresolvedLines> {
  const productIds = [...new Set(lines.map((line) => line.productId))];
  const rows = await findVariantsBySku(db, storeId, productIds, [...new Set(lines.map((line) => line.sku))]);
  const byPair = new Map<string, StockRow[]>();
  for (const row of rows)
    byPair.set(pairKey(row.product_id, row.sku ?? ''), [...(byPair.get(pairKey(row.product_id, row.sku ?? '')) ?? []), row]);
  const matches = lines.map((line) => byPair.get(pairKey(line.productId, line.sku)) ?? []);
  const unknown = matches.flatMap((found, index) => (found.length === 0 ? [index] : []));
  const ambiguous = matches.flatMap((found, index) => (found.length > 1 ? [index] : []));
  if (unknown.length || ambiguous.length) return { unknown, ambiguous };
  const variants = matches.map((found) => found[0]);
  return { moves: movesOf(lines, variants), lineVariants: variants.map((variant) => variant.id) };
}

const columnsOf = (moves: StockMove[], sign: 1 | -1) =>
  [moves.map((move) => move.variantId), moves.map((move) => sign * move.quantity)] as const;

/**
 * All or nothing: takes every move's quantity, or reports why not (the caller's transaction must then
 * roll back: the variants that had enough were already decremented). Hence `Tx`.
 */
export async function takeStock(trx: Tx, storeId: string, moves: StockMove[], at: Date): Promise<StockShortage | null> {
  const [ids, deltas] = columnsOf(moves, -1);
  if (moves.length > 1) await lockVariantsById(trx, storeId, ids);
  const changed = new Set(await addStock(trx, storeId, ids, deltas, at));
  if (changed.size === moves.length) {
    noteProductsChanged(
      trx,
      storeId,
      moves.map((move) => move.productId),
    );
    return null;
  }
  const failed = ids.filter((id) => !changed.has(id));
  const rows = await lockVariantsById(trx, storeId, failed);
  const found = new Set(rows.map((row) => row.id));
  return { short: rows.map((row) => ({ variantId: row.id, available: row.stock })), gone: failed.filter((id) => !found.has(id)) };
}

/** Puts what a checkout took back, on the variants that still exist (a deleted variant has no stock to return to). */
export async function returnStock(trx: Tx, storeId: string, moves: StockMove[], at: Date): Promise<void> {
  const [ids, deltas] = columnsOf(moves, 1);
  if (moves.length > 1) await lockVariantsById(trx, storeId, ids);
  await addStock(trx, storeId, ids, deltas, at);
  // A product deleted since the checkout has no event: its loader finds nothing and the feed skips it.
  noteProductsChanged(
    trx,
    storeId,
    moves.map((move) => move.productId),
  );
}
