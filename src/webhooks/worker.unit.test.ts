import { describe, expect, it } from 'vitest';
import { outcomeToRecord } from './worker.js';

const schedule = [5, 30, 120];
const failed = { ok: false, status: 503, body: 'busy', error: 'HTTP 503', timedOut: false };

describe('outcomeToRecord: the retry schedule and its jitter', () => {
  it('ends a delivery at its first 2xx', () => {
    expect(outcomeToRecord({ ok: true, status: 204, body: '', error: null, timedOut: false }, 2, schedule)).toMatchObject({
      status: 'succeeded',
      retryInSeconds: null,
      responseStatus: 204,
    });
  });

  it('retries attempt n after the nth delay, ±10%, spread (not all at the same instant)', () => {
    for (const [attempt, delay] of schedule.entries()) {
      const retries = Array.from({ length: 200 }, () => outcomeToRecord(failed, attempt + 1, schedule).retryInSeconds as number);
      for (const seconds of retries) {
        expect(seconds).toBeGreaterThanOrEqual(delay * 0.9);
        expect(seconds).toBeLessThanOrEqual(delay * 1.1);
      }
      // Jitter: a crowd of failures does not come back at once.
      expect(new Set(retries).size).toBeGreaterThan(150);
      expect(Math.max(...retries) - Math.min(...retries)).toBeGreaterThan(delay * 0.1);
    }
  });

  it('marks the delivery failed after n + 1 attempts (n = the schedule entries)', () => {
    expect(outcomeToRecord(failed, 3, schedule)).toMatchObject({ status: 'pending' });
    expect(outcomeToRecord(failed, 4, schedule)).toMatchObject({ status: 'failed', retryInSeconds: null, error: 'HTTP 503' });
  });
});
