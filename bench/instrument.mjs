// Preloaded into the server under test (and the ceiling server) with `node --import`: measures the
// process from inside without touching its code. Talks to the bench over the IPC channel only; a
// process started without one (npm start) never loads this file.
//   reset              -> start a measurement window: event-loop histogram, peak RSS, CPU time
//   report             -> the window's event-loop delay, peak RSS, CPU time
//   profile-start/stop -> a V8 CPU profile of the window, written to the given file
//   heap-snapshot      -> a V8 heap snapshot (after a full collection), written to the given file
import cluster from 'node:cluster';
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { writeHeapSnapshot } from 'node:v8';

const RESOLUTION_MS = 10;
const MB = 1024 * 1024;

// Linux keeps the peak RSS (VmHWM) and resets it on request; elsewhere a 20 ms sampler stands in.
const procStatus = '/proc/self/status';
const canResetPeak = (() => {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return readFileSync(procStatus, 'utf8').includes('VmHWM');
  } catch {
    return false;
  }
})();

function peakRssBytes(sampledPeak) {
  if (!canResetPeak) return sampledPeak;
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(procStatus, 'utf8'));
  return match ? Number(match[1]) * 1024 : sampledPeak;
}

/** The process's peak RSS: per window (VmHWM, cleared by each reset) and since it started. */
function createPeakTracker() {
  let sampledPeak = 0;
  let lifetimePeak = 0;
  // Only where the kernel keeps no peak: the sampler itself shows up in profiles (process.memoryUsage.rss).
  if (!canResetPeak) {
    const sampler = setInterval(() => {
      sampledPeak = Math.max(sampledPeak, process.memoryUsage.rss());
    }, 20);
    sampler.unref();
  }
  const current = () => peakRssBytes(sampledPeak);
  return {
    reset() {
      lifetimePeak = Math.max(lifetimePeak, current());
      sampledPeak = process.memoryUsage.rss();
      if (canResetPeak) writeFileSync('/proc/self/clear_refs', '5');
    },
    read() {
      const peak = current();
      lifetimePeak = Math.max(lifetimePeak, peak);
      return { peak, lifetimePeak };
    },
  };
}

function createWindow() {
  // The histogram records the timer's whole interval; the delay is what exceeds the resolution.
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  const peaks = createPeakTracker();
  let cpuStart = process.cpuUsage();
  histogram.enable();
  const delay = (ns) => Math.max(0, ns / 1e6 - RESOLUTION_MS);
  return {
    reset() {
      peaks.reset();
      histogram.reset();
      cpuStart = process.cpuUsage();
    },
    report() {
      const cpu = process.cpuUsage(cpuStart);
      const memory = process.memoryUsage();
      const { peak, lifetimePeak } = peaks.read();
      return {
        eventLoop: { p50: delay(histogram.percentile(50)), p99: delay(histogram.percentile(99)), max: delay(histogram.max) },
        rssPeakMb: peak / MB,
        lifetimeRssPeakMb: lifetimePeak / MB,
        rssMb: memory.rss / MB,
        heapUsedMb: memory.heapUsed / MB,
        heapTotalMb: memory.heapTotal / MB,
        externalMb: memory.external / MB,
        arrayBuffersMb: memory.arrayBuffers / MB,
        cpuMs: (cpu.user + cpu.system) / 1000,
        peakSource: canResetPeak ? 'VmHWM' : 'sampled',
      };
    },
  };
}

function createProfiler() {
  let session = null;
  const post = (method, params) =>
    new Promise((resolve, reject) => session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))));
  return {
    async start() {
      session = new Session();
      session.connect();
      await post('Profiler.enable');
      await post('Profiler.start');
    },
    async stop(file) {
      const { profile } = await post('Profiler.stop');
      writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
}

/**
 * `serve --workers N`: the workers inherit this preload and answer their primary like this process
 * answers the bench; the primary's report adds theirs up (CPU, RSS: the sum of each process's peak, an
 * upper bound of the simultaneous one) and keeps the worst event loop. Profiles stay the primary's.
 */
let nextId = 0;
let workersListening = 0;
if (cluster.isPrimary) cluster.on('listening', () => workersListening++);
function askWorkers(type, extra = {}) {
  const workers = cluster.isPrimary ? Object.values(cluster.workers ?? {}).filter((worker) => worker?.isConnected()) : [];
  return Promise.all(
    workers.map(
      (worker) =>
        new Promise((resolve) => {
          const id = `instrument-${++nextId}`;
          const timer = setTimeout(() => done(null), 5000);
          const onMessage = (message) => message?.id === id && done(message.ok ? message.result : null);
          function done(result) {
            clearTimeout(timer);
            worker.off('message', onMessage);
            resolve(result);
          }
          worker.on('message', onMessage);
          worker.send({ ...extra, type, id });
        }),
    ),
  ).then((results) => results.filter(Boolean));
}

const SUMMED = ['rssPeakMb', 'lifetimeRssPeakMb', 'rssMb', 'heapUsedMb', 'heapTotalMb', 'externalMb', 'arrayBuffersMb', 'cpuMs'];
function combine(own, workers) {
  if (workers.length === 0) return { ...own, workersListening };
  const all = [own, ...workers];
  const total = {
    ...own,
    workersListening,
    processes: all.map((report) => ({ rssPeakMb: report.rssPeakMb, rssMb: report.rssMb, cpuMs: report.cpuMs })),
  };
  for (const key of SUMMED) total[key] = all.reduce((sum, report) => sum + report[key], 0);
  for (const key of ['p50', 'p99', 'max']) total.eventLoop[key] = Math.max(...workers.map((report) => report.eventLoop[key]));
  return total;
}

if (process.send) {
  const window = createWindow();
  const profiler = createProfiler();
  const handlers = {
    reset: async () => {
      window.reset();
      await askWorkers('reset');
    },
    report: async () => combine(window.report(), await askWorkers('report')),
    'profile-start': () => profiler.start(),
    'profile-stop': (message) => profiler.stop(message.file),
    // Last of a run: writing one grows the process's malloc heap by about the snapshot's size.
    'heap-snapshot': (message) => writeHeapSnapshot(message.file),
    // The baseline of the event-cost rounds: the bench's own after-work (bench/serve.mjs) appends no event while set.
    'skip-events': (message) => {
      process.emit('storefront-bench:skip-events', message.skip === true);
      return askWorkers('skip-events', { skip: message.skip === true }).then(() => null);
    },
  };
  process.on('message', async (message) => {
    const handler = handlers[message?.type];
    if (!handler) return;
    try {
      process.send({ id: message.id, ok: true, result: await handler(message) });
    } catch (error) {
      process.send({ id: message.id, ok: false, error: String(error) });
    }
  });
  // The channel must not keep a process alive that would otherwise exit.
  process.channel?.unref();
}
