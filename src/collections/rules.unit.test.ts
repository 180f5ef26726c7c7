import { readFileSync } from 'node:fs';
import { DummyDriver, type Expression, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, type SqlBool } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { DB } from '../db/index.js';
import { conditionErrors, type Rule } from './rules.js';
import { compileRules } from './rules.sql.js';

// A Kysely that only compiles: the generated SQL and parameters are checked without a database.
const db = new Kysely<DB>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

function compiled(condition: Expression<SqlBool>) {
  const query = db.selectFrom('products').select('id').where(condition).compile();
  return { where: query.sql.replace(/^select "id" from "products" where /, ''), parameters: query.parameters };
}

const one = (field: string, operator: string, value: string) => compiled(compileRules('all condition', [{ field, operator, value }]));

describe('compileRules: status, a closed set of lowercase words', () => {
  it.each([
    ['equals', 'active', '"products"."status" = $1', ['active']],
    ['equals', 'DisAbled', '"products"."status" = $1', ['disabled']],
    ['equals', 'archived', 'FALSE', []],
    ['equals', 'activ%', 'FALSE', []],
    ['not_equals', 'ACTIVE', '"products"."status" IS DISTINCT FROM $1', ['active']],
    ['not_equals', 'archived', 'TRUE', []],
    // non-ASCII case folding is left to ILIKE, which decides it as before
    ['equals', 'actİve', '"products"."status" ILIKE $1', ['actİve']],
  ])('status %s %s', (operator, value, sqlText, parameters) => {
    expect(one('status', operator, value)).toEqual({ where: `((${sqlText}))`, parameters });
  });

  it('lists exactly the values the products.status CHECK allows', () => {
    const migration = readFileSync(new URL('../../migrations/0002_products.sql', import.meta.url), 'utf8');
    const allowed = /status text NOT NULL DEFAULT 'active' CHECK \(status IN \(([^)]*)\)\)/.exec(migration)?.[1];
    expect(allowed?.split(',').map((v) => v.trim().replace(/'/g, ''))).toEqual(['active', 'disabled']);
    expect(one('status', 'equals', 'active').parameters).toEqual(['active']);
    expect(one('status', 'equals', 'disabled').parameters).toEqual(['disabled']);
  });
});

describe('compileRules: text fields', () => {
  it.each([
    ['equals', 'Summer', '"products"."title" ILIKE $1', 'Summer'],
    ['contains', 'Sum', '"products"."title" ILIKE $1', '%Sum%'],
    ['starts_with', 'Sum', '"products"."title" ILIKE $1', 'Sum%'],
    ['ends_with', 'mer', '"products"."title" ILIKE $1', '%mer'],
    ['not_equals', 'Summer', '("products"."title" IS NULL OR "products"."title" NOT ILIKE $1)', 'Summer'],
    ['not_contains', 'Sum', '("products"."title" IS NULL OR "products"."title" NOT ILIKE $1)', '%Sum%'],
  ])('title %s', (operator, value, sqlText, parameter) => {
    expect(one('title', operator, value)).toEqual({ where: `((${sqlText}))`, parameters: [parameter] });
  });

  it('maps each text field to its column', () => {
    expect(one('handle', 'equals', 'a').where).toContain('"products"."handle" ILIKE $1');
    expect(one('status', 'contains', 'activ').where).toContain('"products"."status" ILIKE $1');
    expect(one('badge', 'contains', 'new').where).toContain('"products"."badge" ILIKE $1');
  });

  it('escapes LIKE wildcards so % _ and \\ match literally', () => {
    expect(one('title', 'contains', '50%_off\\').parameters).toEqual(['%50\\%\\_off\\\\%']);
    expect(one('title', 'equals', 'a_b').parameters).toEqual(['a\\_b']);
  });

  it('never puts user text into the SQL text', () => {
    const hostile = "x'); DROP TABLE products; --";
    const { where, parameters } = one('title', 'contains', hostile);
    expect(where).not.toContain('DROP');
    expect(parameters).toEqual([`%${hostile}%`]);
  });
});

describe('compileRules: sku', () => {
  // a simple product's own SKU (null: no match, so the negation keeps it) or any variant's
  const own = 'coalesce(products.sku ILIKE $1, false)';
  const exists =
    'EXISTS (SELECT 1 FROM variants WHERE variants.store_id = products.store_id AND variants.product_id = products.id AND variants.sku ILIKE $2)';

  it("matches when the product's own SKU or any variant's matches", () => {
    expect(one('sku', 'starts_with', 'TS-')).toEqual({ where: `(((${own} OR ${exists})))`, parameters: ['TS-%', 'TS-%'] });
  });

  it('negates as "neither matches"', () => {
    expect(one('sku', 'not_equals', 'TS-1')).toEqual({ where: `((NOT (${own} OR ${exists})))`, parameters: ['TS-1', 'TS-1'] });
  });
});

describe('compileRules: vendor, productType, tag', () => {
  it('vendor and productType are text fields over their columns', () => {
    expect(one('vendor', 'equals', 'Acme')).toEqual({ where: '(("products"."vendor" ILIKE $1))', parameters: ['Acme'] });
    expect(one('productType', 'not_contains', 'Gift')).toEqual({
      where: '((("products"."product_type" IS NULL OR "products"."product_type" NOT ILIKE $1)))',
      parameters: ['%Gift%'],
    });
  });

  it('tag: has (equals) or has not (not_equals) the tag, over the indexed lowercased tags', () => {
    const has = 'storefront_lower_tags(products.tags) @> ARRAY[lower($1)]';
    expect(one('tag', 'equals', 'Sale')).toEqual({ where: `((${has}))`, parameters: ['Sale'] });
    expect(one('tag', 'not_equals', 'Sale')).toEqual({ where: `((NOT ${has}))`, parameters: ['Sale'] });
  });
});

describe('compileRules: numeric fields', () => {
  it.each([
    ['equals', '"products"."price" = $1::numeric'],
    ['not_equals', '"products"."price" IS DISTINCT FROM $1::numeric'],
    ['greater_than', '"products"."price" > $1::numeric'],
    ['less_than', '"products"."price" < $1::numeric'],
  ])('price %s', (operator, sqlText) => {
    expect(one('price', operator, '19.99')).toEqual({ where: `((${sqlText}))`, parameters: ['19.99'] });
  });

  it('maps comparePrice and totalStock to their columns', () => {
    expect(one('comparePrice', 'greater_than', '0').where).toContain('"products"."compare_price" > $1::numeric');
    expect(one('totalStock', 'less_than', '5').where).toContain('"products"."total_stock" < $1::numeric');
  });
});

describe('compileRules: combining', () => {
  const rules: Rule[] = [
    { field: 'title', operator: 'contains', value: 'shirt' },
    { field: 'price', operator: 'less_than', value: '20' },
  ];

  it('joins with AND for all condition', () => {
    expect(compiled(compileRules('all condition', rules))).toEqual({
      where: '(("products"."title" ILIKE $1) AND ("products"."price" < $2::numeric))',
      parameters: ['%shirt%', '20'],
    });
  });

  it('joins with OR for any condition', () => {
    expect(compiled(compileRules('any condition', rules)).where).toBe(
      '(("products"."title" ILIKE $1) OR ("products"."price" < $2::numeric))',
    );
  });

  it('matches nothing without rules', () => {
    expect(compiled(compileRules('all condition', [])).where).toBe('FALSE');
  });

  it('refuses to compile an invalid rule', () => {
    expect(() => compileRules('all condition', [{ field: 'price', operator: 'contains', value: '1' }])).toThrow();
    expect(() => compileRules('all condition', [{ field: 'id', operator: 'equals', value: '1' }])).toThrow();
  });
});

describe('conditionErrors', () => {
  const errorsOf = (rules: Rule[]) => conditionErrors(rules).map((detail) => detail.field);

  it('accepts every valid field/operator pair', () => {
    const text = ['title', 'handle', 'status', 'badge', 'sku', 'vendor', 'productType'].flatMap((field) =>
      ['equals', 'not_equals', 'contains', 'not_contains', 'starts_with', 'ends_with'].map((operator) => ({ field, operator, value: 'x' })),
    );
    const numeric = ['price', 'comparePrice', 'totalStock'].flatMap((field) =>
      ['equals', 'not_equals', 'greater_than', 'less_than'].map((operator) => ({ field, operator, value: '1.5' })),
    );
    const tag = ['equals', 'not_equals'].map((operator) => ({ field: 'tag', operator, value: 'Sale' }));
    expect(conditionErrors([...text, ...numeric, ...tag])).toEqual([]);
  });

  it('tag takes only equals and not_equals', () => {
    expect(errorsOf(['contains', 'starts_with', 'greater_than'].map((operator) => ({ field: 'tag', operator, value: 'x' })))).toEqual([
      'conditions[0].operator',
      'conditions[1].operator',
      'conditions[2].operator',
    ]);
  });

  it('names the wrong part of each wrong rule', () => {
    expect(
      errorsOf([
        { field: 'title', operator: 'equals', value: 'ok' },
        { field: 'color', operator: 'equals', value: 'red' },
        { field: 'title', operator: 'greater_than', value: '3' },
        { field: 'price', operator: 'contains', value: '3' },
        { field: 'price', operator: 'equals', value: 'cheap' },
      ]),
    ).toEqual(['conditions[1].field', 'conditions[2].operator', 'conditions[3].operator', 'conditions[4].value']);
  });

  it.each(['10', '-2', '+3', '0.5', '.5', '5.', '1e3', '2.5E-2'])('accepts the number %s', (value) => {
    expect(errorsOf([{ field: 'totalStock', operator: 'greater_than', value }])).toEqual([]);
  });

  it.each(['', ' 1', '1 ', '0x10', '1,5', 'NaN', 'Infinity', '1e400', '--1', '1e'])('rejects %j as a number', (value) => {
    expect(errorsOf([{ field: 'price', operator: 'equals', value }])).toEqual(['conditions[0].value']);
  });
});
