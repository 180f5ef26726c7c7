import type { BenchTarget } from './database.js';
import { type BenchOptions, SCALES, type ScaleName } from './options.js';
import { type SeedInfo, seed } from './seed/seed.js';
import { seedTenants, settleAlone } from './seed/tenants.js';

/**
 * The run's seeded databases: the bench store (with --stores N, among N - 1 other tenants), and with --alone also
 * the same store alone, a copy of its database taken before the tenants were added (tenants.ts).
 */
export interface SeededTargets {
  info: SeedInfo;
  /** where the server under test runs: the store among the tenants when there are any */
  target: BenchTarget;
  /** --alone: the store alone, served by the second server */
  alone?: BenchTarget;
}

/**
 * Seeds `first` (a fresh target). `created` receives every target made here as soon as it exists, so the
 * caller's cleanup drops it even when a later step fails.
 */
export async function seedTargets(
  options: BenchOptions,
  scale: ScaleName,
  first: BenchTarget,
  created: BenchTarget[],
): Promise<SeededTargets> {
  const info = await seed(first, SCALES[scale], { skew: options.skew, otherStore: options.otherStore, copiesOf: options.copiesOf });
  if (options.stores <= 1) return { info, target: first };
  const products = options.copiesOf ?? SCALES[scale];
  let target = first;
  let alone: BenchTarget | undefined;
  if (options.alone) {
    Object.assign(info.seconds, await settleAlone(first));
    alone = first;
    target = await first.clone();
    created.push(target);
  }
  const began = performance.now();
  Object.assign(info.seconds, await seedTenants(target, info.storeId, options.stores - 1, products));
  info.seconds['tenants-total'] = Math.round((performance.now() - began) / 10) / 100;
  info.shape = { ...info.shape, stores: options.stores, alone: options.alone };
  return { info, target, ...(alone ? { alone } : {}) };
}
