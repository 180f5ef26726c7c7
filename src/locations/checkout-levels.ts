import type { Tx } from '../db/index.js';
import { commitLevels, lockedLevelsOf } from './levels.service.js';
import type { LevelKey } from './levels.sql.js';
import { lockProducts, lockVariants, shareLocations } from './levels.sql.js';

/**
 * What a checkout (CONTRACT §9.6) takes from, and a restock puts back to: one item (a variant, or a simple
 * product: no variantId) at one location (none: the store's default), and a quantity.
 */
export interface LevelMove {
  productId: string;
  variantId?: string;
  locationId?: string;
  quantity: number;
}

/** Why a take failed, by index of move: short (with what its level has), its item gone, or its location gone or inactive. */
export interface LevelShortage {
  short: { index: number; available: number }[];
  gone: number[];
  closed: number[];
}

/** The moves' items and locations, locked in the order every level write takes them. */
async function lockMoves(trx: Tx, storeId: string, moves: LevelMove[]) {
  const products = await lockProducts(trx, storeId, [...new Set(moves.map((move) => move.productId))]);
  const variants = await lockVariants(trx, storeId, [...new Set(moves.flatMap((move) => move.variantId ?? []))]);
  const locations = await shareLocations(trx, storeId, [...new Set(moves.flatMap((move) => move.locationId ?? []))]);
  const present = (move: LevelMove) =>
    move.variantId === undefined ? products.get(move.productId)?.simple === true : variants.get(move.variantId) === move.productId;
  return { present, ...locations };
}

const keyOf = (move: LevelMove, locationId: string): LevelKey => ({
  itemId: move.variantId ?? move.productId,
  productId: move.productId,
  variantId: move.variantId ?? null,
  locationId,
});

/**
 * All or nothing: takes every move's quantity from its level, or reports why not (nothing written). A
 * location that is unknown or inactive takes nothing (`closed`). Moves must name distinct levels.
 */
export async function takeLevelStock(trx: Tx, storeId: string, moves: LevelMove[], at: Date): Promise<LevelShortage | null> {
  const { present, active, home } = await lockMoves(trx, storeId, moves);
  const gone = moves.flatMap((move, index) => (present(move) ? [] : [index]));
  const closed = moves.flatMap((move, index) => (move.locationId === undefined || active.get(move.locationId) ? [] : [index]));
  if (gone.length || closed.length) return { short: [], gone, closed };
  const current = await lockedLevelsOf(
    trx,
    storeId,
    moves.map((move) => keyOf(move, move.locationId ?? home)),
    at,
  );
  const values = moves.map((move, index) => current[index].available - move.quantity);
  const short = values.flatMap((value, index) => (value >= 0 ? [] : [{ index, available: current[index].available }]));
  if (short.length) return { short, gone: [], closed: [] };
  await commitLevels(trx, storeId, current, values, at);
  return null;
}

/**
 * Puts what a checkout took back, to the level it was taken from: at a location made inactive since, the
 * units wait there (they count again once it is active), and at a deleted location they go to the default.
 * An item deleted since has no stock to return to.
 */
export async function returnLevelStock(trx: Tx, storeId: string, moves: LevelMove[], at: Date): Promise<void> {
  const { present, active, home } = await lockMoves(trx, storeId, moves);
  const kept = moves.filter(present);
  if (kept.length === 0) return;
  const keys = kept.map((move) => keyOf(move, move.locationId !== undefined && active.has(move.locationId) ? move.locationId : home));
  const merged = new Map<string, { key: LevelKey; quantity: number }>();
  kept.forEach((move, index) => {
    const key = keys[index];
    const id = `${key.itemId}/${key.locationId}`;
    merged.set(id, { key, quantity: (merged.get(id)?.quantity ?? 0) + move.quantity });
  });
  const entries = [...merged.values()];
  const current = await lockedLevelsOf(
    trx,
    storeId,
    entries.map((entry) => entry.key),
    at,
  );
  await commitLevels(
    trx,
    storeId,
    current,
    entries.map((entry, index) => current[index].available + entry.quantity),
    at,
  );
}
