/** Webhooks (the event feed pushed to subscribers' URLs): their routes, and the wiring of deliveries into the app. */

import type { Database } from '../db/index.js';
import type { App, AppContext } from '../http/index.js';
import { startPurgeLoop } from '../shared/index.js';
import { deliveryPurge } from './purge.js';
import { registerWebhookRoutes } from './webhooks.routes.js';
import { type AttemptResult, startDeliveryWorker } from './worker.js';

export { type DeliveryBacklog, deliveryBacklog } from './deliveries-stats.sql.js';
export type { AttemptResult } from './worker.js';

/**
 * The routes; the retention purge of finished deliveries (the shared purge loop); and, unless turned off
 * (STOREFRONT_WEBHOOK_WORKER), this process's delivery worker (it makes deliveries from the feed and sends
 * them), stopped when the app closes.
 */
export async function registerWebhooks(
  api: App,
  ctx: AppContext,
  listen: Database['listen'],
  onAttempt?: (outcome: AttemptResult, seconds: number) => void,
): Promise<void> {
  await registerWebhookRoutes(api, ctx);
  const stopPurge = startPurgeLoop(deliveryPurge(ctx.db, ctx.config.webhookDeliveryRetentionDays), api.log);
  api.addHook('onClose', async () => stopPurge());
  if (!ctx.config.webhookWorker) return;
  const position = ctx.consistency?.position;
  const stop = startDeliveryWorker({ db: ctx.db, listen, config: ctx.config, log: api.log, onAttempt, position });
  api.addHook('onClose', async () => stop());
}
