import type { Database } from '../db/index.js';

/**
 * A background loop of one process that sleeps until it is woken (a NOTIFY on one of its channels, through
 * the database's one listener mechanism), its own timer comes round, or it is stopped. Each cycle says how
 * long to sleep after it (0: go again at once). An error is logged and the loop sleeps `pollMs`.
 */
export interface WakeLoopSettings {
  name: string;
  listen: Database['listen'];
  /** a NOTIFY on any of them wakes the loop */
  channels: readonly string[];
  /** what a wake-up on `channel` says, noted before the loop wakes (the delivery worker: the feed moved) */
  heard?: (channel: string) => void;
  /** a listener was down, so a wake-up may be lost: noted before the loop wakes, and the next cycle finds the work */
  lost?: () => void;
  pollMs: number;
  cycle: () => Promise<number>;
  log: { warn(object: object, message: string): void };
}

export interface WakeLoop {
  /** stops the loop and waits for the current cycle to end */
  stop(): Promise<void>;
  /** ends the current sleep without waking the next one (the delivery worker: an attempt freed its slot) */
  nudge(): void;
}

export function startWakeLoop({ name, listen, channels, heard, lost, pollMs, cycle, log }: WakeLoopSettings): WakeLoop {
  let stopped = false;
  let woken = false;
  let endSleep: (() => void) | null = null;
  const wake = () => {
    woken = true;
    endSleep?.();
  };
  const listeners = channels.map((channel) =>
    listen(channel, {
      message: () => {
        heard?.(channel);
        wake();
      },
      reset: () => {
        lost?.();
        wake();
      },
    }),
  );

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (woken || stopped || ms <= 0) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        endSleep = null;
        resolve();
      }
      endSleep = done;
    });

  const loop = (async () => {
    while (!stopped) {
      // A wake-up that arrives from here on ends the sleep after this cycle; one that came before is served by it.
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

  return {
    stop: async () => {
      stopped = true;
      wake();
      await loop;
      // one after the other: each may send an UNLISTEN on the process's one listening connection
      for (const listener of listeners) await listener.close();
    },
    nudge: () => endSleep?.(),
  };
}
