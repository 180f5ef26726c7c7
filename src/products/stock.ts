import type { Tx } from '../db/index.js';
import { addStock, lockVariantsById, lockVariantsBySku, type StockRow } from './stock.sql.js';

/** One line of a checkout: a variant named by its product and SKU, and a quantity. */
export interface StockLine {
  productId: string;
  sku: string;
  quantity: number;
}

/** What a checkout took from one variant (its lines' quantities summed); a restock puts exactly this back. */
export interface StockMove {
  variantId: string;
  productId: string;
  quantity: number;
}

/** Why a checkout cannot take its stock, by line index: lines naming no variant (or two), lines of short variants. */
export interface StockProblems {
  unknown: number[];
  ambiguous: number[];
  short: { index: number; available: number; wanted: number }[];
}

export type StockOutcome = { moves: StockMove[] } | { problems: StockProblems };

const pairKey = (productId: string, sku: string) => JSON.stringify([productId, sku]);

/** Each line's variant, or why it has none: a (product, SKU) pair of no variant, or of several. */
function resolveLines(lines: StockLine[], rows: StockRow[]) {
  const byPair = new Map<string, StockRow[]>();
  for (const row of rows) {
    const key = pairKey(row.product_id, row.sku ?? '');
    byPair.set(key, [...(byPair.get(key) ?? []), row]);
  }
  return lines.map((line) => byPair.get(pairKey(line.productId, line.sku)) ?? []);
}

/** Quantities summed per variant, in variant id order. */
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
 * All or nothing: locks the variants the lines name and, when every one has the quantity its lines ask
 * for together, takes it (hence `Tx`: the locks and the decrement belong to the caller's transaction).
 * Otherwise changes nothing and says why.
 */
export async function takeStock(trx: Tx, storeId: string, lines: StockLine[], at: Date): Promise<StockOutcome> {
  const rows = await lockVariantsBySku(
    trx,
    storeId,
    [...new Set(lines.map((line) => line.productId))],
    [...new Set(lines.map((line) => line.sku))],
  );
  const matches = resolveLines(lines, rows);
  const unknown = matches.flatMap((found, index) => (found.length === 0 ? [index] : []));
  const ambiguous = matches.flatMap((found, index) => (found.length > 1 ? [index] : []));
  if (unknown.length || ambiguous.length) return { problems: { unknown, ambiguous, short: [] } };
  const variants = matches.map((found) => found[0]);
  const moves = movesOf(lines, variants);
  const wanted = new Map(moves.map((move) => [move.variantId, move.quantity]));
  const short = variants.flatMap((variant, index) => {
    const total = wanted.get(variant.id) ?? 0;
    return variant.stock < total ? [{ index, available: variant.stock, wanted: total }] : [];
  });
  if (short.length) return { problems: { unknown, ambiguous, short } };
  const changed = await addStock(trx, storeId, ...columnsOf(moves, -1), at);
  // The rows are locked and were checked: a difference here is a bug, and must not commit.
  if (changed !== moves.length) throw new Error(`stock decrement changed ${changed} of ${moves.length} variants`);
  return { moves };
}

const columnsOf = (moves: StockMove[], sign: 1 | -1) =>
  [moves.map((move) => move.variantId), moves.map((move) => sign * move.quantity), moves.map((move) => move.productId)] as const;

/** Puts what a checkout took back, on the variants that still exist (a deleted variant has no stock to return to). */
export async function returnStock(trx: Tx, storeId: string, moves: StockMove[], at: Date): Promise<void> {
  const ids = moves.map((move) => move.variantId);
  const existing = new Set(await lockVariantsById(trx, storeId, ids));
  const kept = moves.filter((move) => existing.has(move.variantId));
  if (kept.length) await addStock(trx, storeId, ...columnsOf(kept, 1), at);
}
