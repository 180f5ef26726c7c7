import { describe, expect, it } from 'vitest';
import { TtlSet } from './ttl-set.js';

describe('TtlSet', () => {
  it('forgets a member after its time to live', () => {
    let now = 1000;
    const set = new TtlSet(5000, 10, () => now);
    set.add('admin');
    now += 4999;
    expect(set.has('admin')).toBe(true);
    now += 1;
    expect(set.has('admin')).toBe(false);
  });

  it('drops the oldest member when full', () => {
    const set = new TtlSet(60_000, 2);
    set.add('a');
    set.add('b');
    set.add('c');
    expect([set.has('a'), set.has('b'), set.has('c')]).toEqual([false, true, true]);
  });
});
