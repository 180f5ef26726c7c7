import { invalidField } from '../errors.js';
import type { Position } from './types.js';

/**
 * The feed's cursor: an opaque string holding a position and the filters it was made for. Bound to its
 * `types` and `limit` (CONTRACT-style keyset cursors): used with others it is a 400, so a consumer never
 * silently continues a different walk.
 */
interface CursorBody {
  x: string;
  s: string;
  t: string;
  l: number;
}

export interface Walk {
  types: readonly string[];
  limit: number;
}

const DECIMAL = /^\d{1,20}$/;

export function encodeCursor(position: Position, walk: Walk): string {
  const body: CursorBody = { x: position.xid, s: position.seq, t: walk.types.join(','), l: walk.limit };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

export function decodeCursor(cursor: string, walk: Walk): Position {
  const body = parse(cursor);
  if (!body) throw invalidField('cursor', 'is not a cursor this endpoint issued', 'query');
  if (body.t !== walk.types.join(',') || body.l !== walk.limit) {
    throw invalidField(
      'cursor',
      'was issued for other types or another limit: pass the same ones as the request that returned it',
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
      Number.isInteger(body.l);
    return valid ? (body as CursorBody) : null;
  } catch {
    return null;
  }
}
