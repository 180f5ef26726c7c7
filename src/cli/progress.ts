import { Presets, SingleBar } from 'cli-progress';

export interface Counts {
  done: number;
  total: number | null;
  /** shown in the JSON lines besides done/total/rate */
  extra?: Record<string, number>;
}

export interface Progress {
  update(counts: Counts): void;
  stop(): void;
}

/**
 * The ETA as the bar shows it, from the mean rate since the start. Until something is done (a job still
 * queued, before its first batch) there is no rate to divide by: `--` rather than cli-progress's own
 * estimate, which divides by a zero rate and prints `NFs` (its `INF`, cut to two characters).
 */
export function etaText(done: number, total: number | null, elapsedMs: number): string {
  if (total === null || done <= 0 || elapsedMs <= 0) return '--';
  const seconds = Math.ceil(((total - done) * elapsedMs) / done / 1000);
  if (seconds <= 0) return '0s';
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(seconds / 3600)}h${String(Math.floor((seconds % 3600) / 60)).padStart(2, '0')}m`;
}

/**
 * Progress on stderr: a bar (done/total, rate, ETA) on a terminal; otherwise one JSON line per second, named
 * as the caller says (`processed` for an import, `exported` for an export), so a log or a script can read it.
 */
export function startProgress(doneName: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  const started = Date.now();
  const rate = (done: number) => Math.round(done / Math.max((Date.now() - started) / 1000, 0.001));
  let last: Counts = { done: 0, total: null };
  if (stream.isTTY) {
    const bar = new SingleBar(
      { stream, format: ' {bar} {value}/{total} | {rate}/s | ETA {etaText}', hideCursor: true },
      Presets.shades_classic,
    );
    bar.start(1, 0, { rate: 0, etaText: '--' });
    return {
      update: (counts) => {
        last = counts;
        bar.setTotal(Math.max(counts.total ?? counts.done, 1));
        bar.update(counts.done, { rate: rate(counts.done), etaText: etaText(counts.done, counts.total, Date.now() - started) });
      },
      stop: () => bar.stop(),
    };
  }
  const line = () => {
    const { done, total, extra } = last;
    stream.write(`${JSON.stringify({ [doneName]: done, total, ...extra, rate: rate(done) })}\n`);
  };
  const timer = setInterval(line, 1000);
  return {
    update: (counts) => {
      last = counts;
    },
    stop: () => {
      clearInterval(timer);
      line();
    },
  };
}
