import type { Database } from '../db/index.js';
import { AppError } from '../errors.js';
import type { App } from './context.js';

export function registerHealthRoutes(app: App, database: Database): void {
  const config = { public: true, rateLimit: false };
  app.get('/healthz', { config, schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { config, schema: { hide: true } }, async () => {
    try {
      await database.ping();
    } catch {
      throw new AppError(503, 'SERVICE_UNAVAILABLE', 'The database is unavailable', [], { 'Retry-After': '1' });
    }
    return { status: 'ready', engine: database.engine };
  });
}
