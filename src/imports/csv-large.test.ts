import { Readable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext } from '../../test/helpers.js';
import { csvRow, productByHandle } from '../../test/support/csv.fixtures.js';
import { runStoreJobs, storedUploads } from '../../test/support/jobs.fixtures.js';

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

const MB = 1024 * 1024;
const PRODUCTS = 600;
// each product: two variant records carrying a ~88 KB description (with quoted newlines): ~53 MB in all
const description = `"${'Lorem ipsum, "dolor"\nsit amet. '.repeat(3_000)}`;

/** A Shopify CSV produced as it is read, never whole in memory on either side. */
function largeCsv() {
  let next = 0;
  let bytes = 0;
  const stream = new Readable({
    read() {
      if (next === 0) this.push(`${csvRow(['Handle', 'Title', 'Body (HTML)', 'Option1 Name', 'Option1 Value', 'Variant Price'])}\n`);
      if (next >= PRODUCTS) return void this.push(null);
      const i = next++;
      const chunk = `${csvRow([`big-${i}`, `Big ${i}`, description, 'Size', 'S', '10'])}\n${csvRow([`big-${i}`, '', '', '', 'M', '11'])}\n`;
      bytes += chunk.length;
      this.push(chunk);
    },
  });
  return { stream, bytes: () => bytes };
}

// a collection before each sample, so the samples are what is retained, not garbage not yet collected
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/**
 * The largest growth of the retained heap and buffers over a baseline while `work` runs, sampled every
 * `everyMs`, each sample a full collection of the test worker's heap. Such a collection stops the main thread,
 * and in a busy CI run (a worker's heap grown by the files before, two cores shared by four test files) it took
 * long enough that collections every 250 ms left the upload almost no time to run: the file took 130-170 s
 * there against 9 s alone. The next sample waits at least four times as long as the last one took, so the
 * work keeps most of the main thread however slow a collection is.
 */
async function peakGrowth(work: () => Promise<void>, everyMs: number): Promise<number> {
  const used = () => {
    gc();
    return process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
  };
  const base = used();
  let peak = 0;
  let timer: NodeJS.Timeout | undefined;
  const sample = () => {
    const started = performance.now();
    peak = Math.max(peak, used() - base);
    timer = setTimeout(sample, Math.max(everyMs, 4 * (performance.now() - started)));
  };
  timer = setTimeout(sample, everyMs);
  try {
    await work();
  } finally {
    clearTimeout(timer);
  }
  return Math.max(peak, used() - base);
}

describe('a 50 MB CSV', () => {
  it('is streamed in (read and counted as it arrives) with memory bounded far below its size, then imported', async () => {
    const store = await t.newStore();
    const body = largeCsv();
    let jobId = '';
    const growth = await peakGrowth(async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/v1/imports?resource=products',
        headers: { authorization: `Bearer ${store.token}`, 'content-type': 'text/csv' },
        payload: body.stream,
      });
      expect(response.statusCode).toBe(202);
      jobId = JSON.parse(response.body).data.id;
      expect(JSON.parse(response.body).data.total).toBe(PRODUCTS);
    }, 250);
    const jobGrowth = await peakGrowth(() => runStoreJobs(t, store), 2_000);
    expect(body.bytes()).toBeGreaterThan(50 * MB);
    const job = (await t.call(store, 'GET', `/jobs/${jobId}`)).body.data;
    expect(job).toMatchObject({ status: 'succeeded', created: PRODUCTS, failed: 0 });
    const last = await productByHandle(t, store, `big-${PRODUCTS - 1}`);
    expect(last.description).toBe(description);
    expect(last.variants.map((v: { price: number }) => v.price)).toEqual([10, 11]);
    // the file never sat in memory: holding it once (as bytes) would be over 50 MB, as a string over 100 MB
    expect(growth).toBeLessThan(40 * MB);
    // the job holds one batch at a time (here 100 products of ~93 KB, with their events and documents:
    // 40-55 MB measured), which the batch size bounds, not the file's
    console.log(`50 MB CSV: retained growth ${(growth / MB).toFixed(1)} MB uploading, ${(jobGrowth / MB).toFixed(1)} MB importing`);
    expect(await storedUploads(t, store.id)).toEqual([]);
    // 53 MB through the upload, 600 products of ~90 KB imported, and a full collection per sample: past the
    // default 60 s in a loaded CI lane (both engines timed out there)
  }, 600_000);
});
