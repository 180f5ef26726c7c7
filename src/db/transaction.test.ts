import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/helpers.js';
import { withTx } from './transaction.js';

const opened = useTestDatabase();

const victim = (code: string) => Object.assign(new Error('chosen as victim'), { code });

describe('withTx', () => {
  it('retries the whole transaction when PostgreSQL picks it as a deadlock or serialization victim', async () => {
    for (const code of ['40P01', '40001']) {
      let attempts = 0;
      const result = await withTx(opened.database.db, async () => {
        attempts += 1;
        if (attempts < 3) throw victim(code);
        return 'done';
      });
      expect(result).toBe('done');
      expect(attempts).toBe(3);
    }
  });

  it('gives up after a bounded number of attempts, and never retries other errors', async () => {
    let attempts = 0;
    await expect(
      withTx(opened.database.db, async () => {
        attempts += 1;
        throw victim('40P01');
      }),
    ).rejects.toMatchObject({ code: '40P01' });
    expect(attempts).toBe(4);
    attempts = 0;
    await expect(
      withTx(opened.database.db, async () => {
        attempts += 1;
        throw victim('23505');
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(attempts).toBe(1);
  });

  it('joins a transaction already open instead of opening a second one', async () => {
    await withTx(opened.database.db, async (outer) => {
      await withTx(outer, async (inner) => {
        expect(inner).toBe(outer);
      });
    });
  });
});
