/** The event feed (CONTRACT-level: every committed change is an event): the write side, GET /events, retention. */

export {
  type AfterWorkOptions,
  createAfterWork,
  type RecordKindFeed,
  type RecordKinds,
  type RecordLoader,
} from './after-work.js';
export { registerEventRoutes } from './events.routes.js';
export { type Event, EventListEnvelope } from './events.schema.js';
export { listRecentEvents, type RecentEventPage, type RecentEventsQuery } from './events.service.js';
export { FEED_CHANNEL } from './events.sql.js';
export { newestEventAgeSeconds } from './feed-stats.sql.js';
export { noteChange, noteUpdated } from './notes.js';
export { eventPurge, purgeOldEvents } from './purge.js';
