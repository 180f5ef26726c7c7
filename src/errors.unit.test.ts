import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fromDatabaseError, UNIQUE_FIELDS } from './errors.js';

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
