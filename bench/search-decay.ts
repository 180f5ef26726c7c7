import { measureScenario, type Rig } from './measure.js';
import { scenarioByName } from './scenarios.js';
import { PRODUCT_OPTIONS, productFixture, SEARCH_TERM, WIDE_SEARCH_TERM } from './seed/fixtures.js';

/**
 * search-decay (`--scenario search-decay`, after the others: it adds products): whether a search keeps its
 * rate while the catalog changes. Both searches are measured, then CREATES products are created through
 * POST /products (the seeded catalog's generator, skipping titles that hold either term, so the matches and
 * the work of the search stay the same), then both searches are measured again. The bench's PostgreSQL runs
 * without autovacuum (as CI does): whatever the writes leave behind (dead rows, a GIN pending list) is there
 * for the second measurement. Target: the rate after within 10% of the rate before.
 */

export const SEARCH_DECAY = 'search-decay';
const CREATES = 10_000;
const WORKERS = 16;
const SEARCHES = ['search-products', 'search-products-wide'];

/** A search's rate, and the CPU per request of the server and of PostgreSQL (ms): a shared statement answers a
 * varying number of requests, so the rate moves with how many shared it; PostgreSQL's CPU is what decay grows. */
interface DecayMeasure {
  rps: number;
  ratio: number;
  serverMs: number;
  dbMs: number;
}

export interface DecayRow {
  name: string;
  before: DecayMeasure;
  after: DecayMeasure;
  /** after's ratio to the ceiling over before's: ≥ 0.9 is the target */
  change: number;
}

export interface DecayResult {
  creates: number;
  createSeconds: number;
  rows: DecayRow[];
}

/** Fixture numbers past every product the run made so far, whose titles hold neither search term. */
function* titlesWithoutTerms(start: number): Generator<number> {
  for (let k = start; ; k++) {
    const title = productFixture(k).title.toLowerCase();
    if (!title.includes(SEARCH_TERM) && !title.includes(WIDE_SEARCH_TERM)) yield k;
  }
}

async function createProducts(rig: Rig, count: number): Promise<number> {
  // far past the fixtures create-product and the imports use, so no handle takes a suffix
  const numbers = titlesWithoutTerms(rig.context.seed.nextFixture + 5_000_000);
  const began = performance.now();
  let left = count;
  const worker = async () => {
    while (left > 0) {
      left--;
      const body = { ...productFixture(numbers.next().value as number), options: PRODUCT_OPTIONS };
      const response = await fetch(`${rig.server.url}/api/v1/products`, {
        method: 'POST',
        headers: { authorization: `Bearer ${rig.context.credential}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (response.status !== 201) throw new Error(`POST /products answered ${response.status}: ${await response.text()}`);
      await response.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: WORKERS }, worker));
  return (performance.now() - began) / 1000;
}

async function measureSearches(rig: Rig) {
  const results = [];
  for (const name of SEARCHES) results.push(await measureScenario(rig, scenarioByName(name)));
  const ms = (value: number) => Math.round(value * 100) / 100;
  return results.map((r) => ({
    rps: Math.round(r.real.rps * 10) / 10,
    ratio: r.ratio,
    serverMs: ms(r.real.cpuMsPerRequest),
    dbMs: ms(r.real.dbCpuMsPerRequest),
  }));
}

export async function measureSearchDecay(rig: Rig, creates = CREATES): Promise<DecayResult> {
  const before = await measureSearches(rig);
  const createSeconds = await createProducts(rig, creates);
  const after = await measureSearches(rig);
  const rows = SEARCHES.map((name, i) => ({
    name,
    before: before[i],
    after: after[i],
    change: before[i].ratio > 0 ? Math.round((after[i].ratio / before[i].ratio) * 1000) / 1000 : 0,
  }));
  return { creates, createSeconds: Math.round(createSeconds), rows };
}

export function formatDecay(decay: DecayResult | undefined): string[] {
  if (!decay) return [];
  return [
    `search decay: ${decay.creates} products created through POST /products in ${decay.createSeconds} s (titles matching neither term)`,
    ...decay.rows.map(
      (row) =>
        `  ${row.name}: before ${row.before.rps} req/s (ratio ${row.before.ratio.toFixed(4)}), after ${row.after.rps} req/s ` +
        `(ratio ${row.after.ratio.toFixed(4)}): ${row.change}x  ${row.change >= 0.9 ? 'met' : 'MISSED'} (≥ 0.9); ` +
        `server + database ms/req ${row.before.serverMs} + ${row.before.dbMs} → ${row.after.serverMs} + ${row.after.dbMs}`,
    ),
  ];
}
