import { type Selectable, sql } from 'kysely';
import type { DB, Db } from '../db/index.js';
import { newIdBlock } from '../shared/index.js';

export type RequestLogRow = Selectable<DB['request_log']>;

/** A batch as the INSERT takes it: one array per column, a row per index (the writer's buffer hands them so). */
export interface RequestLogColumns {
  storeIds: string[];
  /** when each was answered, milliseconds since the epoch */
  atMs: number[];
  methods: string[];
  routes: string[];
  statuses: number[];
  credentials: string[];
  requestIds: string[];
  idempotencyKeys: (string | null)[];
  errorCodes: (string | null)[];
  durationsMs: number[];
}

/** Numbers as one PostgreSQL array literal: a join, rather than pg quoting each element as text. */
const numbers = (values: readonly number[]) => `{${values.join(',')}}`;

/**
 * A batch in one INSERT of array parameters, whatever its size (one statement shape, one plan). The rows'
 * ids are made here, in order (`newIdBlock`: the ids newId would have made one by one), and their times
 * from the milliseconds. Rows of a store deleted since they were buffered are left out rather than failing
 * the batch.
 */
export async function insertRequests(db: Db, batch: RequestLogColumns): Promise<number> {
  const ids = newIdBlock(batch.storeIds.length);
  const result = await sql`
    INSERT INTO request_log (store_id, at, id, method, route, status, credential, request_id, idempotency_key, error_code, duration_ms)
    SELECT u.store_id, to_timestamp(u.at_ms / 1000), ${ids.prefix}::text || lpad(to_hex((${ids.first}::int + u.n::int - 1) % 16777216), 6, '0'),
      u.method, u.route, u.status, u.credential, u.request_id, u.idempotency_key, u.error_code, u.duration_ms
    FROM unnest(
      ${batch.storeIds}::text[], ${numbers(batch.atMs)}::float8[], ${batch.methods}::text[], ${batch.routes}::text[],
      ${numbers(batch.statuses)}::smallint[], ${batch.credentials}::text[], ${batch.requestIds}::text[],
      ${batch.idempotencyKeys}::text[], ${batch.errorCodes}::text[], ${numbers(batch.durationsMs)}::real[]
    ) WITH ORDINALITY AS u(store_id, at_ms, method, route, status, credential, request_id, idempotency_key, error_code, duration_ms, n)
    WHERE EXISTS (SELECT 1 FROM stores s WHERE s.id = u.store_id)`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}

/** Where a page ends: the last row's time and id (the log's order, newest first). */
export interface LogPosition {
  at: Date;
  id: string;
}

export interface RequestFilter {
  /** 2: 2xx, 3: 3xx, 4: 4xx, 5: 5xx */
  statusClass?: number;
  route?: string;
  credential?: string;
  /** a request id, an Idempotency-Key or an error code, exactly */
  search?: string;
  /** rows older than this position */
  before?: LogPosition;
  limit: number;
}

/** A page of one store's log, newest first: a backward walk of its part of the primary key. */
export function selectRequests(db: Db, storeId: string, filter: RequestFilter): Promise<RequestLogRow[]> {
  let query = db.selectFrom('request_log').selectAll().where('store_id', '=', storeId);
  if (filter.statusClass !== undefined) {
    query = query.where('status', '>=', filter.statusClass * 100).where('status', '<', (filter.statusClass + 1) * 100);
  }
  if (filter.route !== undefined) query = query.where('route', '=', filter.route);
  if (filter.credential !== undefined) query = query.where('credential', '=', filter.credential);
  const search = filter.search;
  if (search !== undefined) {
    query = query.where((row) =>
      row.or([row('request_id', '=', search), row('idempotency_key', '=', search), row('error_code', '=', search.toUpperCase())]),
    );
  }
  const before = filter.before;
  if (before) query = query.where(sql<boolean>`(at, id) < (${before.at.toISOString()}::timestamptz, ${before.id})`);
  return query.orderBy('at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
}

export interface ErrorGroupRow {
  error_code: string | null;
  route: string;
  count: number;
  last_at: Date;
}

/** The store's error answers (4xx, 5xx) since `hours` ago, counted by (code, route), most frequent first. */
export async function selectErrorGroups(db: Db, storeId: string, hours: number, limit: number): Promise<ErrorGroupRow[]> {
  const { rows } = await sql<ErrorGroupRow>`
    SELECT error_code, route, count(*)::int AS count, max(at) AS last_at
    FROM request_log
    WHERE store_id = ${storeId} AND at >= now() - make_interval(hours => ${hours}) AND status >= 400
    GROUP BY error_code, route
    ORDER BY count DESC, last_at DESC
    LIMIT ${limit}`.execute(db);
  return rows;
}

/** The routes and credentials the store's log holds (the filters' choices), each list at most `limit` long. */
export async function selectFilterChoices(db: Db, storeId: string, limit: number): Promise<{ routes: string[]; credentials: string[] }> {
  const [routes, credentials] = await Promise.all([
    db.selectFrom('request_log').select('route').distinct().where('store_id', '=', storeId).orderBy('route').limit(limit).execute(),
    db
      .selectFrom('request_log')
      .select('credential')
      .distinct()
      .where('store_id', '=', storeId)
      .orderBy('credential')
      .limit(limit)
      .execute(),
  ]);
  return { routes: routes.map((row) => row.route), credentials: credentials.map((row) => row.credential) };
}

/**
 * Deletes up to `batch` of the store's rows older than its newest `keep`: the cut-off is the `keep`-th
 * newest row, found by walking `keep` entries of the store's part of the primary key.
 */
export async function deleteBeyondNewest(db: Db, storeId: string, keep: number, batch: number): Promise<number> {
  const result = await sql`
    DELETE FROM request_log WHERE store_id = ${storeId} AND (at, id) IN (
      SELECT at, id FROM request_log
      WHERE store_id = ${storeId} AND (at, id) < (
        SELECT at, id FROM request_log WHERE store_id = ${storeId} ORDER BY at DESC, id DESC OFFSET ${keep - 1} LIMIT 1
      )
      ORDER BY at, id LIMIT ${batch}
    )`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}

/** The stores with requests older than `days` (one probe of each store's part of the primary key, no lock). */
export async function storesWithOld(db: Db, days: number): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`
    SELECT s.id FROM stores s WHERE EXISTS (
      SELECT 1 FROM request_log r WHERE r.store_id = s.id AND r.at < now() - make_interval(days => ${days}))`.execute(db);
  return rows.map((row) => row.id);
}

/**
 * Deletes up to `batch` of the store's rows older than `days` (one range of its part of the primary key, so
 * no index on the time alone is needed): one store per statement (docs/scaling.md, §5).
 */
export async function deleteOlderThan(db: Db, storeId: string, days: number, batch: number): Promise<number> {
  const result = await sql`
    DELETE FROM request_log WHERE store_id = ${storeId} AND (at, id) IN (
      SELECT r.at, r.id FROM request_log r
      WHERE r.store_id = ${storeId} AND r.at < now() - make_interval(days => ${days})
      ORDER BY r.at LIMIT ${batch}
    )`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}
