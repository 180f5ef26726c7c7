import fc from 'fast-check';
import { CompiledQuery } from 'kysely';
import pgUtils from 'pg/lib/utils.js';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../../test/helpers.js';
import { inlineWith, literal } from './deferred.js';

/**
 * The one place where data becomes SQL text (docs/decisions.md, "The BEGIN with the first statement"): a
 * transaction's first statement is sent with its BEGIN, its parameters written in as literals, each value as
 * the pg driver's own text for it. Held here on both engines: for generated values of every kind the services
 * send, the inlined statement returns exactly what the statement with parameters returns; and a text the scan
 * does not follow (comments, dollar quotes, backslash-escaped quotes) or a binary value is never inlined.
 */
const opened = useTestDatabase();
const driverText = (value: unknown) => pgUtils.prepareValue(value);
const inline = inlineWith(driverText);

/** Characters that mean something to SQL's lexer, among any others (no NUL: PostgreSQL's text cannot hold one). */
const tricky = fc.constantFrom("'", "''", '\\', "\\'", '$', '$$', '$1', '--', '/*', '*/', "E'", ';', '"', '\n', '\t', 'é', '😀', '\u2028');
const anyChar = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }).filter((c) => !c.includes('\u0000'));
const text = fc.string({ unit: fc.oneof(tricky, anyChar), maxLength: 40 });
const longText = fc.string({ unit: fc.oneof(tricky, anyChar), minLength: 2000, maxLength: 5000 });

/** A value and the type its context gives it, as the services' statements do (an insert's column, a cast). */
const typed = fc.oneof(
  text.map((value) => ({ value, type: 'text' })),
  longText.map((value) => ({ value, type: 'text' })),
  fc.integer().map((value) => ({ value, type: 'int' })),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((value) => ({ value, type: 'float8' })),
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map((value) => ({ value, type: 'bigint' })),
  fc
    .tuple(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), fc.nat({ max: 99 }))
    .map(([whole, cents]) => ({ value: `${whole}.${String(cents).padStart(2, '0')}`, type: 'numeric' })),
  fc
    .date({ min: new Date('1000-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true })
    .map((value) => ({ value, type: 'timestamptz' })),
  fc.boolean().map((value) => ({ value, type: 'boolean' })),
  // a document as the services send one: an object as it is (the driver writes its JSON), anything else as JSON text
  fc
    .jsonValue({ maxDepth: 3 })
    .map((json) => JSON.parse(JSON.stringify(json ?? null).replaceAll('\\u0000', '')))
    .map((json) => ({
      value: json !== null && typeof json === 'object' && !Array.isArray(json) ? json : JSON.stringify(json),
      type: 'jsonb',
    })),
  fc.array(text, { maxLength: 5 }).map((value) => ({ value, type: 'text[]' })),
  fc.array(fc.integer(), { maxLength: 5 }).map((value) => ({ value, type: 'int[]' })),
  fc.constant({ value: null, type: 'text' }),
  text.map((value) => ({ value, type: '' })),
);

/** `SELECT $1::type AS c1, …`: one column per value, each named, so no column hides another. */
function statementOf(values: { type: string }[], quoted: string[]): string {
  const columns = values.map(({ type }, i) => `$${i + 1}${type ? `::${type}` : ''} AS c${i + 1}`);
  const strings = quoted.map((s, i) => `${literal(s)} AS q${i + 1}`);
  return `SELECT ${[...columns, ...strings].join(', ')}`;
}

async function rowsOf(text: string, parameters: readonly unknown[]) {
  return (await opened.database.db.executeQuery(CompiledQuery.raw(text, [...parameters]))).rows;
}

describe('values written into SQL text (inlined with the BEGIN)', () => {
  it('return exactly what the same statement with parameters returns, for every kind of value', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(typed, { minLength: 1, maxLength: 6 }), fc.array(text, { maxLength: 2 }), async (values, quoted) => {
        const statement = statementOf(values, quoted);
        // the parameters as the driver sends them: its own text for each value
        const parameters = values.map(({ value }) => driverText(value));
        const inlined = inline(
          statement,
          values.map(({ value }) => value),
        );
        if (inlined === undefined) {
          // only a quoted string the scan does not follow (a comment marker, `$$`, `\'` in it) falls back
          expect(quoted.some((s) => /--|\/\*|\$\w*\$|\\'/.test(literal(s)))).toBe(true);
          return;
        }
        expect(await rowsOf(inlined, [])).toEqual(await rowsOf(statement, parameters));
      }),
      { numRuns: 150 },
    );
  });

  it('a string as a literal reads back as itself', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(text, longText), async (value) => {
        expect(await rowsOf(`SELECT ${literal(value)} AS v, ${literal(value)}::text AS t`, [])).toEqual([{ v: value, t: value }]);
      }),
      { numRuns: 150 },
    );
  });

  it('never inlines a text the scan does not follow, nor a binary value', () => {
    const unscanned = fc.constantFrom('-- x\n', '/* x */', '$$ x $$', '$q$ $1 $q$', '$body_1$ x $body_1$', "E'\\''");
    fc.assert(
      fc.property(fc.array(fc.oneof(text, unscanned), { maxLength: 4 }), unscanned, (parts, marker) => {
        const statement = `SELECT $1 ${[...parts, marker].join(' ')}`;
        expect(inline(statement, ['a'])).toBeUndefined();
      }),
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 16 }), text, (bytes, other) => {
        expect(inline('SELECT $1::bytea, $2', [Buffer.from(bytes), other])).toBeUndefined();
      }),
    );
  });

  it('leaves a placeholder inside a quoted string as it is', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom('$1', '$2', "''", ' ', 'x'), { maxLength: 8 }), text, async (inside, value) => {
        const quoted = `'${inside.join('')}'`;
        const statement = `SELECT ${quoted} AS q, $1::text AS v`;
        const inlined = inline(statement, [value]);
        if (inlined === undefined) return;
        expect(await rowsOf(inlined, [])).toEqual(await rowsOf(statement, [value]));
      }),
      { numRuns: 100 },
    );
  });
});
