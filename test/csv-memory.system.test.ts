import { randomBytes } from 'node:crypto';
import { cpSync, createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createOwnDatabase, type OwnDatabase } from './support/own-database.js';
import { type ServerProcess, startServerProcess } from './support/server-process.js';
import { request, seedStores } from './support/storefront-client.js';

/**
 * Issue 35, item 1: a Shopify product CSV of one product followed by 10 M empty continuation rows (`,,`,
 * 30 MB) grew the server by 600-1,000 MB. Here 3 M rows (9 MB): held rows cost ~100 MB per million, and the
 * peak measured with 3 M and 10 M rows was the same, so the smaller file tells the same in a third of the time
 * (this file runs on three Node versions in CI). Here the server runs as `npm start` runs it (bin/storefront.mjs
 * with its #! flags), on each engine, and its own resident set is read from /proc: its peak (VmHWM, reset
 * at the POST) while the file is uploaded, counted and imported stays within a bound far below what held
 * rows would cost, and another store's GETs are answered meanwhile. The figures measured are printed.
 */

const EMPTY_ROWS = 3_000_000;
// measured 2026-11-29 on the shared two-core machine: see docs/csv-import.md, "Hostile files"
const MAX_GROWTH_MB = 150;
const HEADER = [
  'Handle,Title,Body (HTML),Vendor,Product Category,Type,Tags,Published,Option1 Name,Option1 Value',
  'Option2 Name,Option2 Value,Option3 Name,Option3 Value,Variant SKU,Variant Grams,Variant Inventory Tracker',
  'Variant Inventory Qty,Variant Inventory Policy,Variant Fulfillment Service,Variant Price,Variant Compare At Price',
  'Image Src,Image Position,Status',
].join(',');

/** The hostile file, written as it is generated (never whole in memory). */
async function writeHostileCsv(file: string): Promise<void> {
  const out = createWriteStream(file);
  out.write(`${HEADER}\nlonely,Lonely,${','.repeat(18)}10,,,,active\n`);
  const rows = ',,\n'.repeat(100_000);
  for (let written = 0; written < EMPTY_ROWS; written += 100_000) {
    if (!out.write(rows)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  out.end();
  await finished(out);
}

const statusKb = (pid: number, field: 'VmRSS' | 'VmHWM') => {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(match[1]) / 1024;
};

interface Engine {
  name: 'pglite' | 'postgres';
  /** the server's environment with two stores seeded: the attacker's and a quiet one */
  prepare(dataDir: string, jwtSecret: string): Promise<{ env: Record<string, string>; tokens: string[] }>;
  cleanup(): Promise<void>;
}

const postgresUrl = process.env.TEST_DATABASE_URL;
const canReadProc = (() => {
  try {
    return readFileSync('/proc/self/status', 'utf8').includes('VmHWM');
  } catch {
    return false;
  }
})();
if (!canReadProc) console.warn('csv-memory.system.test.ts: skipped (needs /proc/<pid>/status)');

// Both engines start from the run's migrated templates (initdb and the migrations are not what is tested here:
// on PGlite they cost ~10 s of CPU in WASM), and both stores are seeded in one open of the database.
const pglite = (): Engine => ({
  name: 'pglite',
  async prepare(dataDir, jwtSecret) {
    cpSync(inject('pgliteTemplate'), dataDir, { recursive: true });
    const tokens = (await seedStores(2, '', jwtSecret, dataDir)).map((seeded) => seeded.token);
    return { env: { STOREFRONT_DATA_DIR: dataDir, STOREFRONT_JWT_SECRET: jwtSecret }, tokens };
  },
  cleanup: async () => undefined,
});

const postgres = (): Engine => {
  let own: OwnDatabase | undefined;
  return {
    name: 'postgres',
    async prepare(dataDir, jwtSecret) {
      own = await createOwnDatabase(postgresUrl as string, 'storefront_csv_memory', inject('postgresTemplate'));
      const tokens = (await seedStores(2, own.url, jwtSecret)).map((seeded) => seeded.token);
      return { env: { DATABASE_URL: own.url, STOREFRONT_DATA_DIR: dataDir, STOREFRONT_JWT_SECRET: jwtSecret }, tokens };
    },
    cleanup: async () => {
      await own?.drop();
    },
  };
};

describe.skipIf(!canReadProc)('a 9 MB CSV of one product and 3 M empty rows', () => {
  const dir = mkdtempSync(join(tmpdir(), 'storefront-csv-memory-'));
  const file = join(dir, 'hostile.csv');
  beforeAll(() => writeHostileCsv(file), 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const engines = [pglite(), ...(postgresUrl ? [postgres()] : [])];
  if (!postgresUrl) console.warn('csv-memory.system.test.ts: PostgreSQL skipped (needs TEST_DATABASE_URL)');

  describe.each(engines)('on $name', (engine) => {
    let server: ServerProcess | undefined;
    afterAll(async () => {
      server?.child.kill('SIGKILL');
      await server?.exited;
      await engine.cleanup();
    });

    it('keeps the server within a bounded memory while it imports it, and answers another store meanwhile', async () => {
      expect(statSync(file).size).toBeGreaterThan(EMPTY_ROWS * 3 - 1);
      const { env, tokens } = await engine.prepare(join(dir, `data-${engine.name}`), randomBytes(32).toString('hex'));
      const [attacker, quiet] = tokens;
      // the whole request may take minutes on a loaded machine: this test is about memory, not speed
      server = await startServerProcess({ ...env, STOREFRONT_REQUEST_TIMEOUT_MS: '900000' }, 120_000, [], true);
      const pid = server.child.pid as number;
      // past the start's own work (migrations checked, timers armed), then the peak is measured from here
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const before = statusKb(pid, 'VmRSS');
      writeFileSync(`/proc/${pid}/clear_refs`, '5');

      const base = server.base;
      const posting = fetch(`${base}/api/v1/imports?resource=products`, {
        method: 'POST',
        headers: { authorization: `Bearer ${attacker}`, 'content-type': 'text/csv' },
        body: Readable.toWeb(createReadStream(file)) as ReadableStream,
        duplex: 'half',
      } as RequestInit);
      const quietStatuses: number[] = [];
      let done = false;
      const quietReads = (async () => {
        while (!done) {
          quietStatuses.push((await request(base, quiet, 'GET', '/products?limit=5')).status);
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
      })();
      try {
        const posted = await posting;
        const job = (await posted.json()).data;
        expect(posted.status).toBe(202);
        expect(job.total).toBe(1);
        let state = job;
        while (state.status === 'queued' || state.status === 'running') {
          await new Promise((resolve) => setTimeout(resolve, 500));
          state = (await request(base, attacker, 'GET', `/jobs/${job.id}`)).body.data;
        }
        // the product of 3 M rows is one error line, as docs/csv-import.md says
        expect(state).toMatchObject({ status: 'succeeded', total: 1, processed: 1, created: 0, failed: 1 });
      } finally {
        done = true;
        await quietReads;
      }
      const growth = statusKb(pid, 'VmHWM') - before;
      console.log(
        `${engine.name}: RSS ${before.toFixed(0)} MB at the POST, peak growth +${growth.toFixed(0)} MB; quiet GETs ${quietStatuses.length}`,
      );
      expect(growth).toBeLessThan(MAX_GROWTH_MB);
      expect(quietStatuses.length).toBeGreaterThan(0);
      // every read answered (a status 0 is a read that got no answer within 30 s)
      expect(quietStatuses.filter((status) => status !== 200)).toEqual([]);
    }, 900_000);
  });
});
