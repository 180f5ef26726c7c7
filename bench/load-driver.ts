import net from 'node:net';
import autocannon from 'autocannon';
import { type ScenarioContext, scenarioByName } from './scenarios.js';

/**
 * The load generator: a separate process (so the server under test never shares its event loop
 * with the client), driven by the bench over IPC. One `run` = one autocannon round.
 */

export interface RunJob {
  scenario: string;
  baseUrl: string;
  context: ScenarioContext;
  connections: number;
  /** seconds */
  duration: number;
  /** a round of this many requests, every one answered however long that takes, instead of `duration` seconds */
  amount?: number;
}

export interface RoundResult {
  /** successful (2xx) responses per second: failures are never counted as throughput */
  rps: number;
  /** milliseconds */
  p50: number;
  /** of the 2xx responses (autocannon's own percentiles stop at 90 and 97.5) */
  p95: number;
  p99: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  seconds: number;
  bytesPerResponse: number;
}

/** Requests per connection before it reconnects from the next client address (manyClients scenarios). */
const REQUESTS_PER_CLIENT = 20;

/**
 * Makes every new connection come from the next address of 127.1.0.0/16 (all loopback on Linux),
 * so each simulated client stays under the per-address login limit. Returns the undo.
 */
/** Never reset: rounds follow each other within the throttle's minute, so addresses must not repeat across them. */
let nextAddress = 0;

function spreadSourceAddresses(): () => void {
  const original = net.connect;
  const patched = (...args: unknown[]) => {
    // autocannon calls net.connect(port, hostname), the port as parsed from the URL (a string).
    const [port, host] = args;
    if ((typeof port !== 'number' && typeof port !== 'string') || typeof host !== 'string') {
      return (original as (...a: unknown[]) => net.Socket)(...args);
    }
    nextAddress += 1;
    const localAddress = `127.1.${Math.floor(nextAddress / 250) % 250}.${(nextAddress % 250) + 1}`;
    return original({ port: Number(port), host, localAddress });
  };
  (net as { connect: unknown }).connect = patched;
  return () => {
    (net as { connect: unknown }).connect = original;
  };
}

/**
 * How often autocannon looks whether a round of `amount` requests is over, ms. Its default, a second, would end
 * a round only on a whole second (its time, then, not the requests').
 */
const AMOUNT_SAMPLE_MS = 10;

/** The value at `share` of the sorted values (0 when there are none). */
function percentile(values: number[], share: number): number {
  if (values.length === 0) return 0;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))];
}

async function run(job: RunJob): Promise<RoundResult> {
  const scenario = scenarioByName(job.scenario);
  const restore = scenario.manyClients ? spreadSourceAddresses() : () => undefined;
  try {
    const times: number[] = [];
    const result = await new Promise<autocannon.Result>((resolve, reject) => {
      const instance = autocannon(
        {
          url: job.baseUrl,
          connections: job.connections,
          ...(job.amount ? { amount: job.amount, sampleInt: AMOUNT_SAMPLE_MS } : { duration: job.duration }),
          requests: scenario.requests(job.context),
          timeout: 60,
          ...(scenario.manyClients ? { reconnectRate: REQUESTS_PER_CLIENT } : {}),
        },
        (error, finished) => (error ? reject(error) : resolve(finished)),
      );
      instance.on('response', (_client, status, _bytes, ms) => {
        if (status >= 200 && status < 300) times.push(ms);
      });
    });
    const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, stats]) => [code, stats?.count ?? 0]));
    return {
      rps: result['2xx'] / result.duration,
      p50: result.latency.p50,
      p95: percentile(times, 0.95),
      p99: result.latency.p99,
      ok: result['2xx'],
      non2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
      statusCodes,
      seconds: result.duration,
      bytesPerResponse: result.requests.total > 0 ? result.throughput.total / result.requests.total : 0,
    };
  } finally {
    restore();
  }
}

if (process.send) {
  process.on('message', async (message: { id: number; type: string } & RunJob) => {
    if (message?.type !== 'run') return;
    try {
      process.send?.({ id: message.id, ok: true, result: await run(message) });
    } catch (error) {
      process.send?.({ id: message.id, ok: false, error: error instanceof Error ? error.stack : String(error) });
    }
  });
  process.send({ ready: true });
}
