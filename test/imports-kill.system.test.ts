import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createOwnDatabase, type OwnDatabase } from './support/own-database.js';
import { type ServerProcess, startServerProcess } from './support/server-process.js';
import { eventually, request, seedStore } from './support/storefront-client.js';

/**
 * A real kill -9 in the middle of an import: the server process running the job dies between (or in) a
 * batch; a second process on the same database and data dir claims the job once its lease lapses and
 * finishes it after the last committed batch: every line applied once, counters exact.
 */

const postgresUrl = process.env.TEST_DATABASE_URL;
if (!postgresUrl) console.warn('imports-kill.system.test.ts: skipped (needs TEST_DATABASE_URL)');

const LINES = 600;
const line = (i: number) =>
  JSON.stringify({
    title: `Killed ${i}`,
    handle: `killed-${i}`,
    price: 10 + i,
    options: [
      { name: 'Size', values: ['S', 'M', 'L'] },
      { name: 'Color', values: ['Red', 'Blue', 'Green'] },
    ],
  });

describe.skipIf(!postgresUrl)('an import survives kill -9 of its server process', () => {
  let own: OwnDatabase;
  const servers: ServerProcess[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'storefront-kill-'));

  afterAll(async () => {
    for (const server of servers) server.child.kill('SIGKILL');
    await Promise.all(servers.map((server) => server.exited));
    await own?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('resumes in another process after the last committed batch, without duplicates', async () => {
    own = await createOwnDatabase(postgresUrl as string, 'storefront_kill');
    const jwtSecret = randomBytes(32).toString('hex');
    const { token } = await seedStore(own.url, jwtSecret);
    // both processes share the data dir (the upload's file) and the database; a short lease
    const env = {
      DATABASE_URL: own.url,
      STOREFRONT_JWT_SECRET: jwtSecret,
      STOREFRONT_DATA_DIR: dataDir,
      STOREFRONT_JOB_LEASE_SECONDS: '2',
    };
    const first = await startServerProcess(env);
    servers.push(first);
    const body = Array.from({ length: LINES }, (_, i) => line(i)).join('\n');
    const posted = await fetch(`${first.base}/api/v1/imports?resource=products`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-ndjson' },
      body,
    });
    expect(posted.status).toBe(202);
    const jobId = (await posted.json()).data.id as string;
    const job = async (server: ServerProcess) => (await request(server.base, token, 'GET', `/jobs/${jobId}`)).body?.data;

    // some batches committed, not all: then the process dies without a word
    expect(await eventually(async () => ((await job(first))?.processed ?? 0) >= 100, 120_000)).toBe(true);
    first.child.kill('SIGKILL');
    await first.exited;

    const second = await startServerProcess(env);
    servers.push(second);
    const before = await job(second);
    expect(before.processed).toBeLessThan(LINES);
    expect(await eventually(async () => (await job(second))?.status === 'succeeded', 180_000)).toBe(true);
    expect(await job(second)).toMatchObject({ total: LINES, processed: LINES, created: LINES, updated: 0, failed: 0 });
    const listed = await request(second.base, token, 'GET', '/products?limit=1');
    expect(listed.body.pagination.total).toBe(LINES);
    const variants = await request(second.base, token, 'GET', `/products?handle=killed-${LINES - 1}`);
    expect(variants.body.data[0].variants).toHaveLength(9);
    expect(readdirSync(join(dataDir, 'imports'))).toEqual([]);
  }, 400_000);
});
