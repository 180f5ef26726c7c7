import { describe, expect, it } from 'vitest';
import { createStoreShares } from './store-shares.js';

const takeAll = (shares: ReturnType<typeof createStoreShares>, storeId: string) => {
  let taken = 0;
  while (shares.take(storeId)) taken++;
  return taken;
};

describe('createStoreShares', () => {
  it('of 5: one store alone takes 3, a second 1, a third the last; then nobody', () => {
    const shares = createStoreShares(5);
    expect(takeAll(shares, 'a')).toBe(3);
    expect(takeAll(shares, 'c')).toBe(1);
    expect(takeAll(shares, 'b')).toBe(1);
    expect(shares.take('d')).toBeNull();
  });

  it('never lets two stores hold every unit, whatever order they take in', () => {
    for (const capacity of [3, 4, 5, 8, 16, 50]) {
      const shares = createStoreShares(capacity);
      for (let i = 0; i < capacity * 2; i++) shares.take(i % 2 ? 'a' : 'c');
      expect(shares.held('a') + shares.held('c')).toBeLessThan(capacity);
      expect(shares.take('b')).not.toBeNull();
    }
  });

  it('gives a unit back once, however often it is given back', () => {
    const shares = createStoreShares(4);
    const give = shares.take('a');
    expect(shares.held('a')).toBe(1);
    give?.();
    give?.();
    expect(shares.held('a')).toBe(0);
    expect(takeAll(shares, 'a')).toBe(3);
  });

  it('below 3 units, takes any free one', () => {
    const shares = createStoreShares(2);
    expect(takeAll(shares, 'a')).toBe(2);
    expect(shares.take('b')).toBeNull();
  });
});
