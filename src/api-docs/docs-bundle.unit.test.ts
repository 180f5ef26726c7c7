import apiReference from '@scalar/fastify-api-reference';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { loadScalarBundle, unescapeStringLiteral } from './docs-bundle.js';

const literal = (source: string) => unescapeStringLiteral(Buffer.from(`${source}"; rest`), 0).toString('utf8');

describe("Scalar's bundle read out of @scalar/fastify-api-reference", () => {
  it('is byte for byte what the plugin itself serves', async () => {
    const plugin = Fastify();
    const content = { openapi: '3.1.0', info: { title: 'x', version: '1' }, paths: {} };
    await plugin.register(apiReference, { routePrefix: '/reference', configuration: { content } });
    const served = await plugin.inject({ method: 'GET', url: '/reference/js/scalar.js' });
    const bundle = await loadScalarBundle();
    expect(served.statusCode).toBe(200);
    expect(bundle.js.equals(served.rawPayload)).toBe(true);
    expect(bundle.version).toMatch(/^[0-9a-f]{12}$/);
    await plugin.close();
  }, 60_000);

  it('reads every kind of JS string escape', () => {
    expect(literal('plain é ☃')).toBe('plain é ☃');
    expect(literal('a\\nb\\tc\\r\\b\\f\\v\\0')).toBe('a\nb\tc\r\b\f\v\0');
    expect(literal('q\\"\\\\\\`\\/\\w')).toBe('q"\\`/w');
    expect(literal('\\x41\\xe9\\u0042\\u00e9\\u{1F600}\\ud83d\\ude00')).toBe('AéBé😀😀');
    expect(literal('line\\\ncontinued\\\r\nhere')).toBe('linecontinuedhere');
    expect(() => unescapeStringLiteral(Buffer.from('no end'), 0)).toThrow(/unterminated/);
  });
});
