import { describe, expect, it } from 'vitest';
import { prefersStrictHandling } from './input-guard.js';
import { shapeDetails } from './shape.js';
import { textDetails, textProblem } from './text.js';
import { webUrlProblem } from './urls.js';

describe('Prefer: handling', () => {
  it.each([
    ['handling=strict', true],
    ['HANDLING=Strict', true],
    ['return=minimal, handling=strict', true],
    ['handling="strict"; x=y', true],
    [['respond-async', 'handling=strict'], true],
    ['handling=lenient', false],
    ['handling=lenient, handling=strict', false],
    ['handling=strictly', false],
    ['', false],
    [undefined, false],
  ])('%j -> %s', (header, strict) => {
    expect(prefersStrictHandling(header as string | string[] | undefined)).toBe(strict);
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

  it('names unknown properties at any depth only when strict', () => {
    const value = { items: [{ a: 'x' }, { a: 'y', z: 1 }], meta: { c: 2 }, free: { anything: 1 }, tags: { k: 'v' }, top: 1 };
    expect(shapeDetails(schema, structuredClone(value), 'body', false)).toEqual([]);
    expect(shapeDetails(schema, value, 'body', true).map((d) => d.field)).toEqual(['items[1].z', 'meta.c', 'top']);
  });

  it('renames an alias to its input name, and refuses both names', () => {
    const value: Record<string, unknown> = { image: ['u'] };
    expect(shapeDetails(schema, value, 'body', true)).toEqual([]);
    expect(value).toEqual({ images: ['u'] });
    expect(shapeDetails(schema, { image: [], images: [] }, 'body', false).map((d) => d.field)).toEqual(['image']);
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
