import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, testConfig } from '../../test/helpers.js';
import { buildApp } from '../app.js';
import type { App } from './context.js';

const lines: string[] = [];
let app: App;
let close: () => Promise<void>;

beforeAll(async () => {
  const { database, dataDir, cleanup } = await openTestDatabase();
  app = await buildApp({ config: testConfig(dataDir, { logLevel: 'debug' }), database, logStream: { write: (line) => lines.push(line) } });
  app.get('/leak', { config: { public: true } }, async () => {
    throw new Error(
      `failed on data:image/png;base64,${'iVBORw0KGgo'.repeat(10)} with Bearer eyJhbGciOi.secret.token and sfk_${'a'.repeat(40)}`,
    );
  });
  close = async () => {
    await app.close();
    await database.close();
    cleanup();
  };
});
afterAll(() => close());

describe('logs', () => {
  it('are JSON lines with the request id and never carry credentials, passwords or data URIs', async () => {
    const password = 'super-secret-password-1';
    await app.inject({
      method: 'POST',
      url: '/api/v1/auth',
      payload: { storeSlug: 'x', email: 'a@b.test', password },
      headers: { 'x-request-id': 'log-test-1' },
    });
    await app.inject({ method: 'GET', url: '/api/v1/attribute-sets', headers: { authorization: `Bearer sfk_${'b'.repeat(40)}` } });
    const failed = await app.inject({ method: 'GET', url: '/leak', headers: { 'x-request-id': 'log-test-2' } });
    expect(failed.statusCode).toBe(500);
    const parsed = lines.map((line) => JSON.parse(line));
    expect(parsed.some((entry) => entry.reqId === 'log-test-1')).toBe(true);
    const errorLine = parsed.find((entry) => entry.reqId === 'log-test-2' && entry.level === 50);
    expect(errorLine?.err?.message).toContain('data:[redacted]');
    const all = lines.join('\n');
    for (const secret of [
      password,
      'iVBORw0KGgoiVBORw0KGgo',
      'eyJhbGciOi.secret.token',
      `sfk_${'a'.repeat(40)}`,
      `sfk_${'b'.repeat(40)}`,
    ]) {
      expect(all).not.toContain(secret);
    }
  });
});
