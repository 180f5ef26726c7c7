import type { Database } from '../db/index.js';

/**
 * A background loop of one process that sleeps until it is woken (a NOTIFY on its channel, through the
 * database's one listener mechanism), its own timer comes round, or it is stopped. Each cycle says how
 * long to sleep after it (0: go again at once). An error is logged and the loop sleeps `pollMs`.
 */
export interface WakeLoopSettings {
  name: string;
  listen: Database['listen'];
  channel: string;
  pollMs: number;
  cycle: () => Promise<number>;
  log: { warn(object: object, message: string): void };
}

/** Starts the loop; the returned function stops it and waits for the current cycle to end. */
export function startWakeLoop({ name, listen, channel, pollMs, cycle, log }: WakeLoopSettings): () => Promise<void> {
  let stopped = false;
  let woken = false;
  let wakeSleeper: (() => void) | null = null;
  const wake = () => {
    woken = true;
    wakeSleeper?.();
  };
  // A reset (the listener was down, so a wake-up may be lost) wakes it too: the next cycle finds the work.
  const listener = listen(channel, { message: wake, reset: wake });

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (woken || stopped || ms <= 0) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeSleeper = null;
        resolve();
      }
      wakeSleeper = done;
    });

  const loop = (async () => {
    while (!stopped) {
      woken = false;
      let pause: number;
      try {
        pause = await cycle();
      } catch (error) {
        if (!stopped) log.warn({ err: error }, `${name}: retrying after an error`);
        pause = pollMs;
      }
      await sleep(pause);
    }
  })();

  return async () => {
    stopped = true;
    wake();
    await loop;
    await listener.close();
  };
}
