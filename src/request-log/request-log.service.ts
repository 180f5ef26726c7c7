import type { Db } from '../db/index.js';
import { invalidField } from '../errors.js';
import { isId } from '../shared/index.js';
import { type LogPosition, type RequestLogRow, selectErrorGroups, selectFilterChoices, selectRequests } from './request-log.sql.js';

export const STATUS_CLASSES = ['2xx', '3xx', '4xx', '5xx'] as const;
export type StatusClass = (typeof STATUS_CLASSES)[number];

export interface RequestListQuery {
  status?: StatusClass;
  route?: string;
  credential?: string;
  /** a request id, an Idempotency-Key or an error code (any case), exactly */
  search?: string;
  /** `nextCursor` of the page before */
  cursor?: string;
  /** 1 to 100 (default 50) */
  limit?: number;
}

export interface RequestOutput {
  at: string;
  method: string;
  route: string;
  status: number;
  credential: string;
  requestId: string;
  idempotencyKey: string | null;
  errorCode: string | null;
  durationMs: number;
}

export interface RequestPage {
  data: RequestOutput[];
  /** the next (older) page's cursor, null on the last page */
  nextCursor: string | null;
}

export interface ErrorGroup {
  code: string | null;
  route: string;
  count: number;
  lastAt: string;
}

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 100;
const MAX_FILTER_LENGTH = 500;
const ERROR_HOURS = 24;
const MAX_GROUPS = 50;
const MAX_CHOICES = 200;

const toOutput = (row: RequestLogRow): RequestOutput => ({
  at: row.at.toISOString(),
  method: row.method,
  route: row.route,
  status: row.status,
  credential: row.credential,
  requestId: row.request_id,
  idempotencyKey: row.idempotency_key,
  errorCode: row.error_code,
  durationMs: Math.round(row.duration_ms * 10) / 10,
});

// A cursor is the last row's place in the log's order: time and id. It narrows a walk of the caller's own
// store, so it needs no signature: a made-up one can only show that store's rows.
const encodeCursor = (row: RequestLogRow) => Buffer.from(JSON.stringify([row.at.toISOString(), row.id])).toString('base64url');

function decodeCursor(cursor: string): LogPosition {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    const time = typeof at === 'string' ? new Date(at) : null;
    if (time && !Number.isNaN(time.getTime()) && isId(id)) return { at: time, id };
  } catch {
    // not JSON: below
  }
  throw invalidField('cursor', 'is not a cursor this log issued', 'query');
}

function textFilter(name: string, value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (value.length > MAX_FILTER_LENGTH) throw invalidField(name, `must be at most ${MAX_FILTER_LENGTH} characters`, 'query');
  return value;
}

function statusClassOf(status: string | undefined): number | undefined {
  if (status === undefined || status === '') return undefined;
  if (!(STATUS_CLASSES as readonly string[]).includes(status))
    throw invalidField('status', `must be one of: ${STATUS_CLASSES.join(', ')}`, 'query');
  return Number(status[0]);
}

/** A page of the store's requests, newest first, filtered by status class, route template, credential name and a search. */
export async function listRequests(db: Db, storeId: string, query: RequestListQuery): Promise<RequestPage> {
  const limit = query.limit ?? DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw invalidField('limit', `must be 1 to ${MAX_LIMIT}`, 'query');
  const rows = await selectRequests(db, storeId, {
    statusClass: statusClassOf(query.status),
    route: textFilter('route', query.route),
    credential: textFilter('credential', query.credential),
    search: textFilter('search', query.search?.trim()),
    before: query.cursor ? decodeCursor(query.cursor) : undefined,
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { data: page.map(toOutput), nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
}

/** The store's errors of the last 24 hours, counted by (code, route), most frequent first. */
export async function recentErrorGroups(db: Db, storeId: string): Promise<ErrorGroup[]> {
  const rows = await selectErrorGroups(db, storeId, ERROR_HOURS, MAX_GROUPS);
  return rows.map((row) => ({ code: row.error_code, route: row.route, count: row.count, lastAt: new Date(row.last_at).toISOString() }));
}

/** The route templates and credential names in the store's log: the choices of the filters. */
export const requestFilterChoices = (db: Db, storeId: string) => selectFilterChoices(db, storeId, MAX_CHOICES);
