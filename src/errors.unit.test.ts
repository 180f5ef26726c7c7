import { readdirSync, readFileSync } from 'node:fs';
import Fastify, { type FastifyError } from 'fastify';
import { describe, expect, it } from 'vitest';
import { AppError, found, fromDatabaseError, handleError, toAppError, UNIQUE_FIELDS } from './errors.js';

const MIGRATIONS = new URL('../migrations/', import.meta.url);

/** The SQL of every migration without its comments. */
function migrationSql(): string {
  return readdirSync(MIGRATIONS)
    .filter((file) => file.endsWith('.sql'))
    .map((file) => readFileSync(new URL(file, MIGRATIONS), 'utf8').replace(/--[^\n]*/g, ''))
    .join('\n');
}

/** Named unique indexes and constraints; every UNIQUE must be one of them, so its name is known. */
function uniqueConstraintNames(sqlText: string): { named: string[]; unnamed: number } {
  const indexes = [...sqlText.matchAll(/CREATE\s+UNIQUE\s+INDEX\s+(?:CONCURRENTLY\s+)?(?:IF\s+NOT\s+EXISTS\s+)?"?(\w+)"?/gi)];
  const constraints = [...sqlText.matchAll(/CONSTRAINT\s+"?(\w+)"?\s+UNIQUE\b/gi)];
  const all = (sqlText.match(/\bUNIQUE\b/gi) ?? []).length;
  return { named: [...indexes, ...constraints].map((match) => match[1]), unnamed: all - indexes.length - constraints.length };
}

describe('unique constraint → field table', () => {
  const { named, unnamed } = uniqueConstraintNames(migrationSql());

  it('has a field for every unique constraint and index of the migrations', () => {
    expect(named.length).toBeGreaterThanOrEqual(12);
    expect(named.filter((name) => !Object.hasOwn(UNIQUE_FIELDS, name))).toEqual([]);
  });

  it('names no constraint the migrations lack, and the migrations name every UNIQUE', () => {
    expect(Object.keys(UNIQUE_FIELDS).filter((name) => !named.includes(name))).toEqual([]);
    expect(unnamed).toBe(0);
  });

  it('the parser finds indexes and constraints, and counts an unnamed UNIQUE', () => {
    const sqlText = `CREATE UNIQUE INDEX IF NOT EXISTS a_key ON t (x);
      CREATE TABLE u (y text UNIQUE, z text, CONSTRAINT u_z_key UNIQUE (z));
      ALTER TABLE t ADD CONSTRAINT "t_w_key" UNIQUE (w);`;
    expect(uniqueConstraintNames(sqlText)).toEqual({ named: ['a_key', 'u_z_key', 't_w_key'], unnamed: 1 });
  });

  it('turns a unique violation into DUPLICATE_VALUE naming the field', () => {
    const error = Object.assign(new Error('duplicate key'), { code: '23505', constraint: 'orders_custom_order_id_key' });
    expect(fromDatabaseError(error)).toMatchObject({ status: 400, code: 'DUPLICATE_VALUE', details: [{ field: 'customOrderId' }] });
    const unknown = Object.assign(new Error('duplicate key'), { code: '23505', constraint: 'toString' });
    expect(fromDatabaseError(unknown)?.details[0].field).toBe('value');
  });
});

const frameworkError = (statusCode: number, code: string, message = 'framework says no') =>
  Object.assign(new Error(message), { statusCode, code }) as FastifyError;

describe('framework client errors', () => {
  it("keep their status; the code is CONTRACT's for it, else the status name, never INVALID_JSON", () => {
    expect(toAppError(frameworkError(400, 'FST_ERR_BAD_URL'))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(toAppError(frameworkError(414, 'FST_ERR_MAX_PARAM_LENGTH'))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(toAppError(frameworkError(400, 'FST_ERR_SOMETHING_NEW'))).toMatchObject({ status: 400, code: 'BAD_REQUEST' });
    expect(toAppError(frameworkError(408, 'FST_ERR_X', 'slow'))).toMatchObject({ status: 408, code: 'REQUEST_TIMEOUT', message: 'slow' });
    expect(toAppError(frameworkError(404, 'FST_ERR_NOT_FOUND'))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(toAppError(frameworkError(405, 'X'))).toMatchObject({ status: 405, code: 'METHOD_NOT_ALLOWED' });
    expect(toAppError(frameworkError(431, 'X'))).toMatchObject({ status: 431, code: 'REQUEST_HEADER_FIELDS_TOO_LARGE' });
    expect(toAppError(frameworkError(400, 'FST_ERR_CTP_INVALID_JSON_BODY'))).toMatchObject({ status: 400, code: 'INVALID_JSON' });
    expect(toAppError(frameworkError(429, 'X')).code).toBe('RATE_LIMITED');
  });
});

describe('contention that outlived the retries', () => {
  for (const code of ['40P01', '40001']) {
    it(`${code} answers 503 SERVICE_UNAVAILABLE with Retry-After, never 500`, async () => {
      const app = Fastify({ logger: false });
      app.setErrorHandler(handleError);
      app.post('/write', async () => {
        throw Object.assign(new Error('deadlock detected'), { code });
      });
      const res = await app.inject({ method: 'POST', url: '/write' });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('1');
      expect(res.json()).toEqual({ success: false, error: { code: 'SERVICE_UNAVAILABLE', message: expect.any(String), details: [] } });
      expect(res.json().error.message).not.toContain('deadlock');
      await app.close();
    });
  }
});

describe('found: the one 404 of a lookup', () => {
  it('returns what the lookup found, and names what it looked for when it found nothing', () => {
    const row = { id: 'a' };
    expect(found(row, 'Product')).toBe(row);
    for (const nothing of [undefined, null, false]) {
      const error = (() => {
        try {
          found(nothing, 'Product');
        } catch (thrown) {
          return thrown;
        }
      })();
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ status: 404, code: 'NOT_FOUND', message: 'Product not found' });
    }
  });
});
