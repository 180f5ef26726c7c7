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
 * Progress on stderr: a bar (done/total, rate, ETA) on a terminal; otherwise one JSON line per second, named
 * as the caller says (`processed` for an import, `exported` for an export), so a log or a script can read it.
 */
export function startProgress(doneName: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  const started = Date.now();
  const rate = (done: number) => Math.round(done / Math.max((Date.now() - started) / 1000, 0.001));
  let last: Counts = { done: 0, total: null };
  if (stream.isTTY) {
    const bar = new SingleBar(
      { stream, format: ' {bar} {value}/{total} | {rate}/s | ETA {eta_formatted}', hideCursor: true, etaBuffer: 50 },
      Presets.shades_classic,
    );
    bar.start(1, 0, { rate: 0 });
    return {
      update: (counts) => {
        last = counts;
        bar.setTotal(Math.max(counts.total ?? counts.done, 1));
        bar.update(counts.done, { rate: rate(counts.done) });
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
