/** Webhooks (the event feed pushed to subscribers' URLs): their routes, and the wiring of deliveries into the app. */

import type { Database } from '../db/index.js';
import type { App, AppContext } from '../http/index.js';
import { startPurgeLoop } from '../shared/index.js';
import { deliveryPurge } from './purge.js';
import { registerWebhookRoutes } from './webhooks.routes.js';
import { startDeliveryWorker } from './worker.js';

export type { WebhookTables } from './webhooks.tables.js';

/**
 * The routes (each appended event fans out to the store's webhooks in its own transaction by a trigger on
 * the feed's table, migrations/0020, so nothing is wired here for it); the retention
 * purge of finished deliveries (the shared purge loop); and, unless
 * turned off (STOREFRONT_WEBHOOK_WORKER), this process's delivery worker, stopped when the app closes.
 */
export async function registerWebhooks(api: App, ctx: AppContext, listen: Database['listen']): Promise<void> {
  await registerWebhookRoutes(api, ctx);
  const stopPurge = startPurgeLoop(deliveryPurge(ctx.db, ctx.config.webhookDeliveryRetentionDays), api.log);
  api.addHook('onClose', async () => stopPurge());
  if (!ctx.config.webhookWorker) return;
  const stop = startDeliveryWorker({ db: ctx.db, listen, config: ctx.config, log: api.log });
  api.addHook('onClose', async () => stop());
}
