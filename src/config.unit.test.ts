import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

const dataDir = () => mkdtempSync(join(tmpdir(), 'storefront-config-'));

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({ STOREFRONT_DATA_DIR: dataDir() });
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 3000,
      databaseUrl: null,
      publicUrl: 'http://127.0.0.1:3000',
      tokenTtl: 3600,
      rateLimit: 50,
      redisUrl: null,
      demo: true,
    });
  });

  it('reads the webhook retry schedule: seconds, comma-separated, validated', () => {
    const dir = dataDir();
    expect(loadConfig({ STOREFRONT_DATA_DIR: dir }).webhookRetrySchedule).toEqual([5, 30, 120, 600, 1800, 3600, 7200, 14400, 28800, 43200]);
    expect(loadConfig({ STOREFRONT_DATA_DIR: dir, STOREFRONT_WEBHOOK_RETRY_SCHEDULE: '1, 2.5,60' }).webhookRetrySchedule).toEqual([
      1, 2.5, 60,
    ]);
    for (const bad of ['1,,2', 'soon', '-1', '999999999']) {
      expect(() => loadConfig({ STOREFRONT_DATA_DIR: dir, STOREFRONT_WEBHOOK_RETRY_SCHEDULE: bad })).toThrow(
        /STOREFRONT_WEBHOOK_RETRY_SCHEDULE/,
      );
    }
    expect(loadConfig({ STOREFRONT_DATA_DIR: dir })).toMatchObject({
      webhookAllowPrivate: false,
      webhookTimeoutMs: 10_000,
      webhookLeaseSeconds: 40,
      webhookWorker: true,
      webhookDeliveryRetentionDays: 30,
    });
    expect(loadConfig({ STOREFRONT_DATA_DIR: dir, STOREFRONT_WEBHOOK_DELIVERY_RETENTION_DAYS: '7' }).webhookDeliveryRetentionDays).toBe(7);
    expect(() => loadConfig({ STOREFRONT_DATA_DIR: dir, STOREFRONT_WEBHOOK_DELIVERY_RETENTION_DAYS: '0' })).toThrow(
      /STOREFRONT_WEBHOOK_DELIVERY_RETENTION_DAYS/,
    );
  });

  it('leases a webhook attempt for the timeout and 30 s more, or STOREFRONT_WEBHOOK_LEASE_SECONDS if it outlasts the timeout', () => {
    const dir = dataDir();
    const lease = (env: Record<string, string>) => loadConfig({ STOREFRONT_DATA_DIR: dir, ...env }).webhookLeaseSeconds;
    expect(lease({ STOREFRONT_WEBHOOK_TIMEOUT_MS: '15500' })).toBe(46);
    expect(lease({ STOREFRONT_WEBHOOK_TIMEOUT_MS: '15000', STOREFRONT_WEBHOOK_LEASE_SECONDS: '16' })).toBe(16);
    for (const bad of ['15', '0', 'soon']) {
      expect(() => lease({ STOREFRONT_WEBHOOK_TIMEOUT_MS: '15000', STOREFRONT_WEBHOOK_LEASE_SECONDS: bad })).toThrow(
        /^STOREFRONT_WEBHOOK_LEASE_SECONDS /,
      );
    }
  });

  it('generates the embedded JWT secret once and keeps it in the data dir (0600)', () => {
    const dir = dataDir();
    const first = loadConfig({ STOREFRONT_DATA_DIR: dir }).jwtSecret;
    expect(loadConfig({ STOREFRONT_DATA_DIR: dir }).jwtSecret).toBe(first);
    expect(readFileSync(join(dir, 'jwt-secret'), 'utf8')).toBe(first);
    expect(statSync(join(dir, 'jwt-secret')).mode & 0o777).toBe(0o600);
  });

  it('requires a strong secret with DATABASE_URL', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://x@localhost/db' })).toThrow(/^STOREFRONT_JWT_SECRET is required/);
    expect(() => loadConfig({ DATABASE_URL: 'postgres://x@localhost/db', STOREFRONT_JWT_SECRET: 'short' })).toThrow(/at least 32 bytes/);
    expect(loadConfig({ DATABASE_URL: 'postgres://x@localhost/db', STOREFRONT_JWT_SECRET: 'x'.repeat(32) }).databaseUrl).toBe(
      'postgres://x@localhost/db',
    );
  });

  it('names the wrong variable in one line', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ PORT: 'abc' }, /^PORT must be an integer/],
      [{ PORT: '70000' }, /^PORT must be between/],
      [{ DATABASE_URL: 'mysql://x' }, /^DATABASE_URL must start with postgres/],
      [{ REDIS_URL: 'nope' }, /^REDIS_URL is not a valid URL/],
      [{ STOREFRONT_RATE_LIMIT: '-1' }, /^STOREFRONT_RATE_LIMIT must be a number/],
      [{ STOREFRONT_TOKEN_TTL: '1.5' }, /^STOREFRONT_TOKEN_TTL must be an integer/],
      [{ LOG_LEVEL: 'loud' }, /^LOG_LEVEL must be one of/],
      [{ STOREFRONT_DEMO: 'maybe' }, /^STOREFRONT_DEMO must be true or false/],
      [{ STOREFRONT_PUBLIC_URL: 'ftp://x' }, /^STOREFRONT_PUBLIC_URL must start with http/],
    ];
    for (const [env, message] of cases) {
      expect(() => loadConfig({ STOREFRONT_DATA_DIR: dataDir(), ...env })).toThrow(message);
    }
  });

  it('has bounded server limits by default and validates each one by name', () => {
    expect(loadConfig({ STOREFRONT_DATA_DIR: dataDir() })).toMatchObject({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 120_000,
      keepAliveTimeoutMs: 5_000,
      socketTimeoutMs: 60_000,
      maxConnections: 1_000,
      bodyDrainBytes: 64 * 1024 * 1024,
      shutdownTimeoutMs: 30_000,
      dbPoolSize: 10,
    });
    const cases: [Record<string, string>, RegExp][] = [
      [{ STOREFRONT_REQUEST_TIMEOUT_MS: 'soon' }, /^STOREFRONT_REQUEST_TIMEOUT_MS must be an integer/],
      [{ STOREFRONT_HEADERS_TIMEOUT_MS: '0' }, /^STOREFRONT_HEADERS_TIMEOUT_MS must be between/],
      [{ STOREFRONT_HEADERS_TIMEOUT_MS: '5000', STOREFRONT_REQUEST_TIMEOUT_MS: '1000' }, /^STOREFRONT_HEADERS_TIMEOUT_MS must not exceed/],
      [{ STOREFRONT_KEEP_ALIVE_TIMEOUT_MS: '-1' }, /^STOREFRONT_KEEP_ALIVE_TIMEOUT_MS must be an integer/],
      [{ STOREFRONT_SOCKET_TIMEOUT_MS: '1e3' }, /^STOREFRONT_SOCKET_TIMEOUT_MS must be an integer/],
      [{ STOREFRONT_MAX_CONNECTIONS: '0' }, /^STOREFRONT_MAX_CONNECTIONS must be between/],
      [{ STOREFRONT_BODY_DRAIN_BYTES: 'all' }, /^STOREFRONT_BODY_DRAIN_BYTES must be an integer/],
      [{ STOREFRONT_SHUTDOWN_TIMEOUT_MS: '999999999999' }, /^STOREFRONT_SHUTDOWN_TIMEOUT_MS must be between/],
      [{ STOREFRONT_DB_POOL_SIZE: '0' }, /^STOREFRONT_DB_POOL_SIZE must be between/],
    ];
    for (const [env, message] of cases) {
      expect(() => loadConfig({ STOREFRONT_DATA_DIR: dataDir(), ...env })).toThrow(message);
    }
  });
});
