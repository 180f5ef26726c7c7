import { lsnText, lsnValue } from '../db/index.js';
import type { PositionMemory } from '../http/index.js';
import type { RedisLink } from './redis-link.js';

/**
 * Each credential's newest write position (src/http/consistency.ts), kept REMEMBER_MS: in Redis when the
 * link is usable, so the process that answers a read knows what another one wrote; else in this process
 * (the same fallback as the rate limit's: a failed command bypasses Redis for a moment). A position only
 * ever moves forward: two processes answering the same credential's writes in either order leave the newer.
 */

const REMEMBER_MS = 60_000;
/** in-process entries kept at most (the oldest forgotten first): a bound whatever the number of credentials */
const MAX_LOCAL = 100_000;

// Positions compared as 64-bit numbers (a Lua number is exact to 2^53 bytes of WAL: 8 PiB).
const KEEP_NEWER = `local old = redis.call('GET', KEYS[1])
if old and tonumber(old) >= tonumber(ARGV[1]) then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
else
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
end
return 1`;

function localMemory(now: () => number) {
  const positions = new Map<string, { value: bigint; until: number }>();
  return {
    remember(credential: string, value: bigint) {
      const known = positions.get(credential);
      const kept = known && known.until > now() && known.value > value ? known.value : value;
      positions.delete(credential);
      if (positions.size >= MAX_LOCAL) positions.delete(positions.keys().next().value as string);
      positions.set(credential, { value: kept, until: now() + REMEMBER_MS });
    },
    newest(credential: string): bigint | null {
      const known = positions.get(credential);
      return known && known.until > now() ? known.value : null;
    },
  };
}

export function rememberWritePositions(redis: RedisLink | null, prefix: string, now: () => number = Date.now): PositionMemory {
  const local = localMemory(now);
  const key = (credential: string) => `${prefix}position:${credential}`;
  return {
    async remember(credential, position) {
      const value = lsnValue(position);
      if (value === undefined) return;
      local.remember(credential, value);
      if (!redis?.usable()) return;
      await redis.client.eval(KEEP_NEWER, 1, key(credential), value.toString(), String(REMEMBER_MS)).catch((error) => redis.failed(error));
    },
    async newest(credential) {
      const mine = local.newest(credential);
      if (!redis?.usable()) return mine === null ? null : lsnText(mine);
      const shared = await redis.client.get(key(credential)).catch((error) => {
        redis.failed(error);
        return null;
      });
      const theirs = shared === null ? null : BigInt(shared);
      const newest = mine === null || (theirs !== null && theirs > mine) ? theirs : mine;
      return newest === null ? null : lsnText(newest);
    },
  };
}
