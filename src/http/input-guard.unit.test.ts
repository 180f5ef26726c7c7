import { describe, expect, it } from 'vitest';
import { shapeDetails } from '../shared/input-shape.js';
import { textDetails, textProblem } from '../shared/input-text.js';
import { webUrlProblem } from '../shared/web-urls.js';
import { statedHandling } from './input-guard.js';

describe('Prefer: handling', () => {
  it.each([
    ['handling=strict', 'strict'],
    ['HANDLING=Strict', 'strict'],
    ['return=minimal, handling=strict', 'strict'],
    ['handling="strict"; x=y', 'strict'],
    [['respond-async', 'handling=strict'], 'strict'],
    ['handling=lenient', 'lenient'],
    [' Handling = "LENIENT" ', 'lenient'],
    ['handling=lenient, handling=strict', 'lenient'],
    ['handling=strictly', null],
    ['return=minimal', null],
    ['', null],
    [undefined, null],
  ])('%j -> %s', (header, handling) => {
    expect(statedHandling(header as string | string[] | undefined)).toBe(handling);
  });
});

describe('text the database cannot store', () => {
  it('finds NUL and lone surrogates, not well-formed pairs', () => {
    expect(textProblem('a\u0000')).toMatch(/U\+0000/);
    expect(textProblem('\ud800')).toMatch(/lone surrogate/);
    expect(textProblem('x\udfffy')).toMatch(/lone surrogate/);
    expect(textProblem('🎉 e\u0301 \ud83c\udf89')).toBeNull();
  });

  it('walks a body of any depth without recursion', () => {
    let deep: unknown = 'ok\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const [detail] = textDetails(deep, 'body', 'body');
    expect(detail.field).toMatch(/^(\[0\]){100000}$/);
  });

  it('reports at most 100 details', () => {
    expect(textDetails(Array(1000).fill('\u0000'), 'body', 'body')).toHaveLength(100);
  });
});

describe('walking a value along its schema', () => {
  const schema = {
    type: 'object',
    additionalProperties: false,
    properties: {
      items: { type: 'array', items: { type: 'object', properties: { a: { type: 'string' } } } },
      images: { type: 'array' },
      image: { type: 'array', 'x-alias-of': 'images' },
      meta: { type: ['object', 'null'], properties: { b: {} } },
      free: {},
      tags: { type: 'object', additionalProperties: { type: 'string' } },
    },
  };

  const strict = { handling: 'strict' } as const;
  const lenient = { handling: 'lenient' } as const;

  it('names unknown properties at any depth when strict, removes them when lenient', () => {
    const value = { items: [{ a: 'x' }, { a: 'y', z: 1 }], meta: { c: 2 }, free: { anything: 1 }, tags: { k: 'v' }, top: 1 };
    const ignored = structuredClone(value);
    expect(shapeDetails(schema, ignored, 'body', lenient)).toEqual([]);
    expect(ignored).toEqual({ items: [{ a: 'x' }, { a: 'y' }], meta: {}, free: { anything: 1 }, tags: { k: 'v' } });
    expect(shapeDetails(schema, value, 'body', strict).map((d) => d.field)).toEqual(['items[1].z', 'meta.c', 'top']);
  });

  it("removes the representation's read-only names at any depth, and only those", () => {
    const representation = {
      type: 'object',
      properties: {
        id: { type: 'string' },
        items: { type: 'array', items: { type: 'object', properties: { a: {}, id: {} } } },
        open: { type: 'object', properties: { x: {} } },
        loose: {},
      },
    };
    const value = { id: 'r1', items: [{ a: 'x', id: 'i1', z: 1 }], open: { x: 1 }, loose: { y: 1 }, top: 1 };
    const details = shapeDetails(schema, value, 'body', { handling: 'strict', representation });
    expect(details.map((d) => d.field)).toEqual(['items[0].z', 'top']);
    expect(value).toEqual({ items: [{ a: 'x', z: 1 }], top: 1 });
  });

  it('leaves an object where the schema takes none to the type check (it names the field, not its keys)', () => {
    const scalars = {
      type: 'object',
      properties: { price: { type: ['number', 'null'] }, fields: { additionalProperties: { type: 'string' } } },
    };
    expect(shapeDetails(scalars, { price: { amount: 1 }, fields: { a: { b: 1 } } }, 'body', strict)).toEqual([]);
  });

  it('renames an alias to its input name, and refuses both names', () => {
    const value: Record<string, unknown> = { image: ['u'] };
    expect(shapeDetails(schema, value, 'body', strict)).toEqual([]);
    expect(value).toEqual({ images: ['u'] });
    expect(shapeDetails(schema, { image: [], images: [] }, 'body', lenient).map((d) => d.field)).toEqual(['image']);
  });
});

describe('URLs the service stores', () => {
  it.each([
    'https://cdn.example.test/a.png',
    'http://cdn.example.test:8080/p/t%C3%A9e.png?v=2#front',
    'https://xn--caf-dma.example/a.png',
  ])('accepts %s', (url) => {
    expect(webUrlProblem(url)).toBeNull();
  });

  it.each([
    'https://cdn.example.test/a.png\r\nSet-Cookie: a=b',
    'https://cdn.example.test/a b.png',
    'https://cdn.example.test/\ta.png',
    'https://cdn.example.test/a.png\u0000',
    'https://cdn.example.test/\u00a0a.png',
    'https://cdn.example.test/\u2028',
    'https://',
    'http:/x.test/a.png',
    'ftp://x.test/a.png',
    `https://x.test/${'a'.repeat(2048)}`,
  ])('refuses %j', (url) => {
    expect(webUrlProblem(url)).not.toBeNull();
  });
});
