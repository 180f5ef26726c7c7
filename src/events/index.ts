/** The event feed (CONTRACT-level: every committed change is an event): the write side, GET /events, retention. */
import type { Database } from '../db/index.js';
import type { App, AppContext } from '../http/index.js';
import { startPurgeLoop } from '../shared/index.js';
import { registerEventRoutes } from './events.routes.js';
import { eventPurge } from './purge.js';

export {
  type AfterWorkOptions,
  createAfterWork,
  type RecordKindFeed,
  type RecordKinds,
  type RecordLoader,
} from './after-work.js';
export { type Event, EventListEnvelope } from './events.schema.js';
export { listRecentEvents, type RecentEventPage, type RecentEventsQuery } from './events.service.js';
export { FEED_CHANNEL } from './events.sql.js';
export { newestEventAgeSeconds } from './feed-stats.sql.js';
export { noteChange, noteUpdated } from './notes.js';
export { purgeOldEvents } from './purge.js';

/** GET /events, and the retention purge of the feed (the shared purge loop) while the app is open. */
export async function registerEvents(api: App, ctx: AppContext, listen: Database['listen']): Promise<void> {
  await registerEventRoutes(api, ctx, listen);
  const stopPurge = startPurgeLoop(eventPurge(ctx.db, ctx.config.eventRetentionDays), api.log);
  api.addHook('onClose', async () => stopPurge());
}
