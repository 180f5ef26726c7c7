import { invalidField } from '../errors.js';
import type { Position } from './types.js';

/**
 * The feed's cursor: an opaque string holding a position and the filters it was made for. Bound to its
 * `types`, `recordId`, `limit` and direction (CONTRACT-style keyset cursors): used with others it is a 400,
 * so a consumer never silently continues a different walk. `r` and `o` are left out when unset, so the
 * cursors issued before they existed still read on.
 */
interface CursorBody {
  x: string;
  s: string;
  t: string;
  l: number;
  r?: string;
  /** 'n': newest first (the console's walk back through the feed) */
  o?: 'n';
}

export interface Walk {
  types: readonly string[];
  recordId?: string;
  limit: number;
  newestFirst?: boolean;
}

const DECIMAL = /^\d{1,20}$/;

export function encodeCursor(position: Position, walk: Walk): string {
  const body: CursorBody = { x: position.xid, s: position.seq, t: walk.types.join(','), l: walk.limit };
  if (walk.recordId !== undefined) body.r = walk.recordId;
  if (walk.newestFirst) body.o = 'n';
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

export function decodeCursor(cursor: string, walk: Walk): Position {
  const body = parse(cursor);
  if (!body) throw invalidField('cursor', 'is not a cursor this endpoint issued', 'query');
  if (
    body.t !== walk.types.join(',') ||
    body.l !== walk.limit ||
    body.r !== walk.recordId ||
    (body.o === 'n') !== Boolean(walk.newestFirst)
  ) {
    throw invalidField(
      'cursor',
      'was issued for other types, another recordId or another limit: pass the same ones as the request that returned it',
      'query',
    );
  }
  return { xid: body.x, seq: body.s };
}

function parse(cursor: string): CursorBody | null {
  try {
    const body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<CursorBody>;
    const valid =
      typeof body.x === 'string' &&
      DECIMAL.test(body.x) &&
      typeof body.s === 'string' &&
      DECIMAL.test(body.s) &&
      typeof body.t === 'string' &&
      Number.isInteger(body.l) &&
      (body.r === undefined || typeof body.r === 'string') &&
      (body.o === undefined || body.o === 'n');
    return valid ? (body as CursorBody) : null;
  } catch {
    return null;
  }
}
