import { expect } from 'vitest';
import { RATE_LIMIT_WINDOW_MS } from '../../src/auth/rate-limit.js';

/**
 * Sends requests (in parallel, or one after another) and checks them against a budget of `perWindow`
 * successes per fixed window. On a quiet machine the burst fits in one window and the counts are exact; on
 * a loaded one it may straddle more windows, each of which grants its budget again, so the bound follows
 * the time the burst really took instead of failing on how busy the machine was.
 */
export async function expectBudget(
  send: () => Promise<number[]>,
  perWindow: number,
): Promise<{ ok: number; limited: number; statuses: number[] }> {
  const started = performance.now();
  const statuses = await send();
  const windows = Math.floor((performance.now() - started) / RATE_LIMIT_WINDOW_MS) + 1;
  const ok = statuses.filter((status) => status === 200).length;
  const limited = statuses.filter((status) => status === 429).length;
  expect(ok + limited).toBe(statuses.length);
  expect(ok).toBeGreaterThanOrEqual(Math.min(perWindow, statuses.length));
  expect(ok).toBeLessThanOrEqual(perWindow * windows);
  if (windows === 1) expect(ok).toBe(Math.min(perWindow, statuses.length));
  return { ok, limited, statuses };
}
