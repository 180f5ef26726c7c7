import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createOwnDatabase, type OwnDatabase } from './support/own-database.js';
import { type ServerProcess, startServerProcess } from './support/server-process.js';
import { eventually, request, seedStore } from './support/storefront-client.js';

/**
 * A real kill -9 in the middle of an import: the server process running the job dies between (or in) a
 * batch; a second process on the same database, with a data dir of its own (another machine), claims the
 * job once its lease lapses and finishes it after the last committed batch: every line applied once,
 * counters exact. The upload is in the database, not on the first machine's disk.
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

async function uploadsLeft(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return Number((await client.query("select count(*) as n from blobs where key like 'upload/%'")).rows[0].n);
  } finally {
    await client.end();
  }
}

describe.skipIf(!postgresUrl)('an import survives kill -9 of its server process', () => {
  let own: OwnDatabase;
  const servers: ServerProcess[] = [];
  const dataDirs = [mkdtempSync(join(tmpdir(), 'storefront-kill-a-')), mkdtempSync(join(tmpdir(), 'storefront-kill-b-'))];

  afterAll(async () => {
    for (const server of servers) server.child.kill('SIGKILL');
    await Promise.all(servers.map((server) => server.exited));
    await own?.drop();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  it('resumes in another process after the last committed batch, without duplicates', async () => {
    own = await createOwnDatabase(postgresUrl as string, 'storefront_kill', inject('postgresTemplate'));
    const jwtSecret = randomBytes(32).toString('hex');
    const { token } = await seedStore(own.url, jwtSecret);
    // the processes share the database, not a disk (a data dir each); a short lease
    const env = {
      DATABASE_URL: own.url,
      STOREFRONT_JWT_SECRET: jwtSecret,
      STOREFRONT_JOB_LEASE_SECONDS: '2',
    };
    const first = await startServerProcess({ ...env, STOREFRONT_DATA_DIR: dataDirs[0] });
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

    const second = await startServerProcess({ ...env, STOREFRONT_DATA_DIR: dataDirs[1] });
    servers.push(second);
    const before = await job(second);
    expect(before.processed).toBeLessThan(LINES);
    expect(await eventually(async () => (await job(second))?.status === 'succeeded', 180_000)).toBe(true);
    expect(await job(second)).toMatchObject({ total: LINES, processed: LINES, created: LINES, updated: 0, failed: 0 });
    const listed = await request(second.base, token, 'GET', '/products?limit=1');
    expect(listed.body.pagination.total).toBe(LINES);
    const variants = await request(second.base, token, 'GET', `/products?handle=killed-${LINES - 1}`);
    expect(variants.body.data[0].variants).toHaveLength(9);
    // the upload is removed once the job has ended: its cleanup runs right after the job is marked succeeded,
    // so a reader that saw "succeeded" can still find the upload for a moment (a fresh-clone CI run did)
    expect(await eventually(async () => (await uploadsLeft(own.url)) === 0, 30_000)).toBe(true);
  }, 400_000);
});
