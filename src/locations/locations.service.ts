import type { Db } from '../db/index.js';
import { type Tx, withTx } from '../db/index.js';
import { AppError, found, invalidField } from '../errors.js';
import { noteUpdated } from '../events/index.js';
import { runList } from '../reads/index.js';
import { isId, iso, lockedCurrent, suppliedColumns } from '../shared/index.js';
import {
  type CreateLocationInput,
  type Location,
  type LocationListQuery,
  MAX_LOCATIONS,
  type UpdateLocationInput,
} from './locations.schema.js';
import {
  clearDefaultLocation,
  deleteLocationRow,
  findLocationRow,
  insertLocation,
  type LocationRow,
  listSpec,
  locationHoldsStock,
  lockStoreLocations,
  resyncLocationItems,
  selectLocations,
  updateLocationRow,
} from './locations.sql.js';

export function toLocationOutput(row: LocationRow): Location {
  return {
    id: row.id,
    name: row.name,
    code: row.code,
    address: (row.address as Location['address']) ?? null,
    active: row.active,
    isDefault: row.is_default,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

async function findRow(db: Db, storeId: string, id: string): Promise<LocationRow> {
  return found(isId(id) && (await findLocationRow(db, storeId, id)), 'Location');
}

export async function getLocation(db: Db, storeId: string, id: string): Promise<Location> {
  return toLocationOutput(await findRow(db, storeId, id));
}

/** If-Match's current version: the location as GET returns it, row locked. */
export const currentLocation = (id: string) => lockedCurrent('locations', id, getLocation);

export async function listLocations(db: Db, storeId: string, query: LocationListQuery) {
  const { rows, pagination } = await runList(selectLocations(db, storeId), query, listSpec, { db, storeId });
  return { data: rows.map(toLocationOutput), pagination };
}

const columnsOf = (input: UpdateLocationInput) =>
  suppliedColumns({
    name: input.name?.trim(),
    code: input.code === undefined ? undefined : (input.code?.trim() ?? null),
    address: input.address === undefined ? undefined : input.address && JSON.stringify(input.address),
    active: input.active,
  });

/** The default's own rules: it stays active, and it stops being the default only when another becomes it. */
function checkDefault(row: Pick<LocationRow, 'is_default'>, input: UpdateLocationInput): void {
  const isDefault = input.isDefault ?? row.is_default;
  if (isDefault && input.active === false)
    throw invalidField('active', 'the default location cannot be made inactive: make another the default first');
  if (row.is_default && input.isDefault === false) {
    throw invalidField('isDefault', 'a store always has a default location: make another one the default instead');
  }
}

export function createLocation(db: Db, storeId: string, input: CreateLocationInput): Promise<Location> {
  return withTx(db, async (trx) => {
    checkDefault({ is_default: false }, input);
    if ((await lockStoreLocations(trx, storeId)) >= MAX_LOCATIONS) {
      throw invalidField('name', `a store has at most ${MAX_LOCATIONS} locations: delete one first`);
    }
    if (input.isDefault) await clearDefaultLocation(trx, storeId);
    const row = await insertLocation(trx, storeId, { ...columnsOf(input), name: input.name.trim(), is_default: input.isDefault === true });
    return toLocationOutput(row);
  });
}

export function updateLocation(db: Db, storeId: string, id: string, input: UpdateLocationInput): Promise<Location> {
  return withTx(db, async (trx) => {
    await lockStoreLocations(trx, storeId);
    const before = await findRow(trx, storeId, id);
    checkDefault(before, input);
    const moves = input.isDefault === true && !before.is_default;
    if (moves) await clearDefaultLocation(trx, storeId);
    const row = await updateLocationRow(trx, storeId, id, { ...columnsOf(input), ...(moves ? { is_default: true } : {}) });
    if (row.active !== before.active) await resync(trx, storeId, id);
    return toLocationOutput(row);
  });
}

/** A location that starts or stops counting changes the totals of the items it holds stock of: their products change. */
async function resync(trx: Tx, storeId: string, id: string): Promise<void> {
  noteUpdated(trx, storeId, 'product', await resyncLocationItems(trx, storeId, id));
}

export function deleteLocation(db: Db, storeId: string, id: string): Promise<{ id: string }> {
  return withTx(db, async (trx) => {
    await lockStoreLocations(trx, storeId);
    const row = await findRow(trx, storeId, id);
    if (row.is_default)
      throw invalidField('id', 'is the default location, which cannot be deleted: make another the default first', 'path');
    if (await locationHoldsStock(trx, storeId, id)) {
      throw new AppError(409, 'LOCATION_NOT_EMPTY', 'The location holds stock: move or set its levels to 0 first (/inventory-levels)', [
        { field: 'id', in: 'path', message: 'has inventory levels above 0' },
      ]);
    }
    // Levels below 0 go with it: the totals that counted them are set again first.
    noteUpdated(trx, storeId, 'product', await deleteLocationRow(trx, storeId, id));
    return { id };
  });
}
