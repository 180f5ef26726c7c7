import type { Answer, Auth } from '../http/index.js';
import type { RequestLogColumns } from './request-log.sql.js';

/** The writer's buffer: requests held in memory until a batch takes them, oldest first. */
export interface HeldRequests {
  /** requests held */
  readonly size: number;
  /** keeps one answer of `auth`'s store; false (nothing kept) when `capacity` requests are held */
  push(answer: Answer, auth: Auth): boolean;
  /** hands over the oldest `rows` (or all, if fewer) as a batch's columns and forgets them */
  take(rows: number): RequestLogColumns;
}

const emptyColumns = (): RequestLogColumns => ({
  storeIds: [],
  atMs: [],
  methods: [],
  routes: [],
  statuses: [],
  credentials: [],
  requestIds: [],
  idempotencyKeys: [],
  errorCodes: [],
  durationsMs: [],
});

/**
 * The buffer as columns, one array each, that grow with what is held and give up what a batch takes: a request
 * adds no object of its own that outlives it (its time, duration and status are numbers in arrays of numbers,
 * its strings are the request's own: the store's id, the route template, the credential's name, the request
 * id), so a second of requests held does not survive the young generation's collections into the old one; and
 * nothing is held for requests already written (issue 42: 10,000 preallocated slots and the last 10,000 request
 * ids they kept were 1.3 MB of an idle server's ~37 MB live heap, which the old generation is let grow to 1.5×
 * of; under load a batch is taken at 500 rows, so a few hundred are held).
 */
export function createHeldRequests(capacity: number): HeldRequests {
  const held = emptyColumns();

  function push(answer: Answer, auth: Auth): boolean {
    if (held.storeIds.length >= capacity) return false;
    held.storeIds.push(auth.storeId);
    held.credentials.push(auth.name);
    held.methods.push(answer.method);
    held.routes.push(answer.route);
    held.statuses.push(answer.status);
    held.requestIds.push(answer.requestId);
    held.idempotencyKeys.push(answer.idempotencyKey);
    held.errorCodes.push(answer.errorCode);
    held.atMs.push(answer.at.getTime());
    held.durationsMs.push(answer.ms);
    return true;
  }

  // splice hands the oldest rows over as arrays of their own, and V8 shrinks a column's storage as it empties
  const take = (rows: number): RequestLogColumns => ({
    storeIds: held.storeIds.splice(0, rows),
    atMs: held.atMs.splice(0, rows),
    methods: held.methods.splice(0, rows),
    routes: held.routes.splice(0, rows),
    statuses: held.statuses.splice(0, rows),
    credentials: held.credentials.splice(0, rows),
    requestIds: held.requestIds.splice(0, rows),
    idempotencyKeys: held.idempotencyKeys.splice(0, rows),
    errorCodes: held.errorCodes.splice(0, rows),
    durationsMs: held.durationsMs.splice(0, rows),
  });

  return {
    get size() {
      return held.storeIds.length;
    },
    push,
    take,
  };
}
