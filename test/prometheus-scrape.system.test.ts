import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, type ServerProcess, startServerProcess } from './support/server-process.js';
import { eventually } from './support/storefront-client.js';

/**
 * A real Prometheus (the Debian package's binary, its own port and temp dir) scrapes a running server's
 * GET /metrics, and a PromQL query over its HTTP API sees the requests the test made.
 */

const hasPrometheus = spawnSync('prometheus', ['--version']).status === 0;
if (!hasPrometheus) console.warn('prometheus-scrape.system.test.ts: skipped (no prometheus binary: apt-get install prometheus)');

describe.skipIf(!hasPrometheus)('Prometheus scraping GET /metrics', () => {
  const dir = mkdtempSync(join(tmpdir(), 'storefront-prometheus-'));
  let server: ServerProcess | undefined;
  let prometheus: ChildProcess | undefined;

  afterAll(async () => {
    prometheus?.kill('SIGKILL');
    server?.child.kill('SIGTERM');
    await server?.exited;
    rmSync(dir, { recursive: true, force: true });
  });

  it('scrapes the server and answers a PromQL query over what it counted', async () => {
    server = await startServerProcess({ STOREFRONT_DATA_DIR: join(dir, 'data') });
    for (let i = 0; i < 5; i++) expect((await fetch(`${server.base}/healthz`)).status).toBe(200);
    const target = new URL(server.base).host;
    const port = await freePort();
    writeFileSync(
      join(dir, 'prometheus.yml'),
      `global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: storefront\n    static_configs:\n      - targets: ['${target}']\n`,
    );
    prometheus = spawn(
      'prometheus',
      [
        `--config.file=${join(dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${join(dir, 'tsdb')}`,
        `--web.listen-address=127.0.0.1:${port}`,
      ],
      { stdio: 'ignore' },
    );
    const query = `sum(storefront_http_requests_total{job="storefront",route="/healthz",status="200"})`;
    const value = async () => {
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/query?query=${encodeURIComponent(query)}`).catch(() => null);
      if (!res?.ok) return 0;
      const body = (await res.json()) as { data: { result: { value: [number, string] }[] } };
      return Number(body.data.result[0]?.value[1] ?? 0);
    };
    expect(await eventually(async () => (await value()) >= 5, 60_000)).toBe(true);
    // the scrape itself was answered (loopback) and is counted by route template too
    const up = await fetch(`http://127.0.0.1:${port}/api/v1/query?query=${encodeURIComponent('up{job="storefront"}')}`);
    expect(((await up.json()) as { data: { result: { value: [number, string] }[] } }).data.result[0].value[1]).toBe('1');
  }, 180_000);
});
