import type { Answer, Auth } from '../http/index.js';
import type { RequestLogColumns } from './request-log.sql.js';

/** The writer's buffer: requests held in memory until a batch takes them, oldest first. */
export interface RequestRing {
  /** requests held */
  readonly size: number;
  /** keeps one answer of `auth`'s store; false (nothing kept) when the ring is full */
  push(answer: Answer, auth: Auth): boolean;
  /** hands over the oldest `rows` (or all, if fewer) as a batch's columns and forgets them */
  take(rows: number): RequestLogColumns;
}

/**
 * The buffer as preallocated columns used as a ring, rather than an object per request: a request adds no
 * object of its own that outlives it (its time and duration are numbers in typed arrays, its strings are
 * the request's own: the store's id, the route template, the credential's name, the request id), so a
 * second of requests held does not survive the young generation's collections into the old one.
 */
export function createRing(capacity: number): RequestRing {
  const text = () => new Array<string>(capacity).fill('');
  const nullable = () => new Array<string | null>(capacity).fill(null);
  const storeIds = text();
  const methods = text();
  const routes = text();
  const credentials = text();
  const requestIds = text();
  const idempotencyKeys = nullable();
  const errorCodes = nullable();
  const atMs = new Float64Array(capacity);
  const durationsMs = new Float64Array(capacity);
  const statuses = new Uint16Array(capacity);
  let head = 0;
  let size = 0;

  function push(answer: Answer, auth: Auth): boolean {
    if (size === capacity) return false;
    const slot = (head + size) % capacity;
    storeIds[slot] = auth.storeId;
    credentials[slot] = auth.name;
    methods[slot] = answer.method;
    routes[slot] = answer.route;
    statuses[slot] = answer.status;
    requestIds[slot] = answer.requestId;
    idempotencyKeys[slot] = answer.idempotencyKey;
    errorCodes[slot] = answer.errorCode;
    atMs[slot] = answer.at.getTime();
    durationsMs[slot] = answer.ms;
    size++;
    return true;
  }

  function take(rows: number): RequestLogColumns {
    const count = Math.min(rows, size);
    const batch: RequestLogColumns = {
      storeIds: new Array(count),
      atMs: new Array(count),
      methods: new Array(count),
      routes: new Array(count),
      statuses: new Array(count),
      credentials: new Array(count),
      requestIds: new Array(count),
      idempotencyKeys: new Array(count),
      errorCodes: new Array(count),
      durationsMs: new Array(count),
    };
    for (let row = 0; row < count; row++) {
      const slot = (head + row) % capacity;
      batch.storeIds[row] = storeIds[slot];
      batch.atMs[row] = atMs[slot];
      batch.methods[row] = methods[slot];
      batch.routes[row] = routes[slot];
      batch.statuses[row] = statuses[slot];
      batch.credentials[row] = credentials[slot];
      batch.requestIds[row] = requestIds[slot];
      batch.idempotencyKeys[row] = idempotencyKeys[slot];
      batch.errorCodes[row] = errorCodes[slot];
      batch.durationsMs[row] = durationsMs[slot];
    }
    head = (head + count) % capacity;
    size -= count;
    return batch;
  }

  return {
    get size() {
      return size;
    },
    push,
    take,
  };
}
