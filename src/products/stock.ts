import type { Db, Tx } from '../db/index.js';
import { type LevelMove, noteMovedLevels, returnLevelStock, takeLevelStock } from '../locations/index.js';
import type { CreateProductInput, UpdateProductInput, UpdateVariantInput } from './products.schema.js';
import { findStockBySku, type StockRow } from './stock.sql.js';

/** One line of a checkout: a variant, or a simple product, named by its product and SKU, and a quantity. */
export interface StockLine {
  productId: string;
  sku: string;
  quantity: number;
  /** the location it is taken from; none: the store's default */
  locationId?: string;
}

/**
 * What a checkout takes from one stock (its lines' quantities summed); a restock puts exactly this back.
 * A variant's stock names its `variantId`; a simple product's stock (its totalStock) has none.
 */
export interface StockMove {
  variantId?: string;
  productId: string;
  /** none: the store's default location (and every order decremented before locations existed) */
  locationId?: string;
  quantity: number;
}

/** Lines (by index) naming no variant or simple product, or two variants sharing the SKU. */
export interface UnresolvedLines {
  unknown: number[];
  ambiguous: number[];
}

/**
 * Why a take failed, per stock (its target: stockTarget): short (with what it has), gone since the lines were
 * resolved, or at a location that is unknown or inactive (`closed`).
 */
export interface StockShortage {
  short: { target: string; available: number }[];
  gone: string[];
  closed: string[];
}

/**
 * The stock a move takes from: its variant's id, or its simple product's id (ids are unique across both),
 * and the location it names, if any.
 */
export const stockTarget = (move: Pick<StockMove, 'variantId' | 'productId' | 'locationId'>) =>
  `${move.variantId ?? move.productId}${move.locationId === undefined ? '' : `@${move.locationId}`}`;

const pairKey = (productId: string, sku: string) => JSON.stringify([productId, sku]);

/** The move of line i, without its quantity (`rows[i]` is line i's variant or simple product). */
function moveOf(line: StockLine, { id, product_id: productId, simple }: StockRow): StockMove {
  return { ...(simple ? {} : { variantId: id }), productId, ...(line.locationId ? { locationId: line.locationId } : {}), quantity: 0 };
}

/** Quantities summed per stock and location, in target order. */
function movesOf(lines: StockLine[], rows: StockRow[]): StockMove[] {
  const moves = new Map<string, StockMove>();
  lines.forEach((line, index) => {
    const move = moveOf(line, rows[index]);
    const target = stockTarget(move);
    moves.set(target, { ...move, quantity: (moves.get(target)?.quantity ?? 0) + line.quantity });
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
  return { moves: movesOf(lines, targets), lineTargets: targets.map((row, index) => stockTarget(moveOf(lines[index], row))) };
}

const toLevelMove = (move: StockMove): LevelMove => ({
  productId: move.productId,
  ...(move.variantId === undefined ? {} : { variantId: move.variantId }),
  ...(move.locationId === undefined ? {} : { locationId: move.locationId }),
  quantity: move.quantity,
});

/**
 * All or nothing: takes every move's quantity from its level (the move's location, else the default), or
 * reports why not and writes nothing. The locks are taken in the one order every level write uses
 * (src/locations/levels.sql.ts), so two checkouts never deadlock; the totals follow the levels (migration 0114).
 */
export async function takeStock(trx: Tx, storeId: string, moves: StockMove[], at: Date): Promise<StockShortage | null> {
  const shortage = await takeLevelStock(trx, storeId, moves.map(toLevelMove), at);
  if (!shortage) return null;
  const target = (index: number) => stockTarget(moves[index]);
  return {
    short: shortage.short.map(({ index, available }) => ({ target: target(index), available })),
    gone: shortage.gone.map(target),
    closed: shortage.closed.map(target),
  };
}

/** Puts what a checkout took back (src/locations/checkout-levels.ts: where, when its location is gone or inactive). */
export async function returnStock(trx: Tx, storeId: string, moves: StockMove[], at: Date): Promise<void> {
  await returnLevelStock(trx, storeId, moves.map(toLevelMove), at);
}

/**
 * Whether a product or variant write may move an inventory level through a total it writes (the database
 * sets the default location's level to match a written stock or totalStock: migrations 0114, 0124): a new
 * item's level is written only for a stock other than 0; an update's for any stock it names, or for options
 * (a product that loses them becomes simple, and its totalStock a level).
 */
function mayMoveLevels(input: CreateProductInput | UpdateProductInput | UpdateVariantInput, creating: boolean): boolean {
  // the fields of the three bodies that carry a stock (a variant's `stock`; a product's `totalStock`, its entries' `stock`)
  const named = input as { stock?: number; totalStock?: number | null; variants?: { stock?: number }[]; options?: unknown };
  const stocks = [named.stock, named.totalStock, ...(named.variants ?? []).map((entry) => entry.stock)];
  if (creating) return stocks.some((stock) => !!stock);
  return named.options !== undefined || stocks.some((stock) => stock !== undefined);
}

/**
 * At the end of a product or variant write: an `inventory.updated` noted for each level its totals moved
 * (src/locations), read only when the input could have moved one.
 */
export async function noteLevelsMovedBy(
  trx: Tx,
  storeId: string,
  input: CreateProductInput | UpdateProductInput | UpdateVariantInput,
  { creating = false } = {},
): Promise<void> {
  if (mayMoveLevels(input, creating)) await noteMovedLevels(trx, storeId);
}
