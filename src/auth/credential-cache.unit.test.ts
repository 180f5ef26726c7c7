import { describe, expect, it } from 'vitest';
import type { Auth } from '../http/index.js';
import { CredentialCache } from './credential-cache.js';

const auth = (principal: string): Auth => ({ storeId: 's', scopes: ['*'], kind: 'key', principal, name: principal });

function cacheWith(live = { value: true }) {
  return { cache: new CredentialCache(() => live.value), live };
}

describe('CredentialCache', () => {
  it('serves what was put, and forgets it when its tag is announced', () => {
    const { cache } = cacheWith();
    cache.put('hash-a', 'key:s:a', auth('key:a'), cache.generation);
    expect(cache.get('hash-a')?.principal).toBe('key:a');
    cache.announced('key:s:a');
    expect(cache.get('hash-a')).toBeUndefined();
  });

  // One entry per credential used, of every store: with a thousand stores' keys and admins it must stay bounded.
  it('holds at most 10,000 credentials, the oldest forgotten first, whatever the number of stores', () => {
    const { cache } = cacheWith();
    for (let i = 0; i <= 10_000; i++) cache.put(`hash-${i}`, `key:store-${i}:k`, auth(`key:${i}`), cache.generation);
    expect(cache.get('hash-0')).toBeUndefined();
    expect(cache.get('hash-1')?.principal).toBe('key:1');
    expect(cache.get('hash-10000')?.principal).toBe('key:10000');
    // the forgotten entry's tag went with it: announcing it drops nothing else
    cache.announced('key:store-0:k');
    expect(cache.get('hash-1')?.principal).toBe('key:1');
  });

  it('does not store a lookup that raced with a change (read before it, stored after it)', () => {
    const { cache } = cacheWith();
    const before = cache.generation;
    cache.announced('key:s:other');
    cache.put('hash-a', 'key:s:a', auth('key:a'), before);
    expect(cache.get('hash-a')).toBeUndefined();
  });

  it('serves nothing while the listener is down, and drops everything on a reset', () => {
    const { cache, live } = cacheWith();
    cache.put('hash-a', 'key:s:a', auth('key:a'), cache.generation);
    live.value = false;
    expect(cache.get('hash-a')).toBeUndefined();
    cache.put('hash-b', 'key:s:b', auth('key:b'), cache.generation);
    cache.clear();
    live.value = true;
    expect(cache.get('hash-a')).toBeUndefined();
    expect(cache.get('hash-b')).toBeUndefined();
  });

  it('forgets everything on `*` (TRUNCATE)', () => {
    const { cache } = cacheWith();
    cache.put('hash-a', 'key:s:a', auth('key:a'), cache.generation);
    cache.put('admin:s:x', 'admin:s:x', auth('admin:x'), cache.generation);
    cache.announced('*');
    expect(cache.get('hash-a')).toBeUndefined();
    expect(cache.get('admin:s:x')).toBeUndefined();
  });

  it('drops the entry at once after a revoking write, then waits for the announcement', async () => {
    const { cache } = cacheWith();
    cache.put('hash-a', 'key:s:a', auth('key:a'), cache.generation);
    let settled = false;
    const revoking = cache
      .revoking('key:s:a', async () => 'revoked')
      .then((result) => {
        settled = true;
        return result;
      });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(cache.get('hash-a')).toBeUndefined();
    expect(settled).toBe(false);
    cache.announced('key:s:a');
    expect(await revoking).toBe('revoked');
  });

  it('does not wait when the announcement came first, when nothing was revoked, or while down', async () => {
    const { cache, live } = cacheWith();
    const started = Date.now();
    await cache.revoking('key:s:a', async () => {
      cache.announced('key:s:a');
      return 'revoked';
    });
    await cache.revoking('key:s:b', async () => undefined);
    live.value = false;
    await cache.revoking('key:s:c', async () => 'revoked');
    // A call that waited would take the whole echo wait (1 s); the margin below it is for a busy machine.
    expect(Date.now() - started).toBeLessThan(950);
  });
});
