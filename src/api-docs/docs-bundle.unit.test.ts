import apiReference from '@scalar/fastify-api-reference';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { loadScalarBundle } from './docs-bundle.js';

describe("Scalar's bundle read from @scalar/fastify-api-reference's file", () => {
  it('is byte for byte what the plugin itself serves', async () => {
    const plugin = Fastify();
    const content = { openapi: '3.1.0', info: { title: 'x', version: '1' }, paths: {} };
    await plugin.register(apiReference, { routePrefix: '/reference', configuration: { content } });
    const served = await plugin.inject({ method: 'GET', url: '/reference/js/scalar.js' });
    const bundle = await loadScalarBundle();
    expect(served.statusCode).toBe(200);
    expect(bundle.js.length).toBeGreaterThan(1_000_000);
    expect(bundle.js.equals(served.rawPayload)).toBe(true);
    expect(bundle.version).toMatch(/^[0-9a-f]{12}$/);
    await plugin.close();
  }, 60_000);
});
