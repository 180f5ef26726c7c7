/** The event feed (CONTRACT-level: every committed change is an event): the write side, GET /events, retention. */

export { registerEventRoutes } from './events.routes.js';
export { EventListEnvelope } from './events.schema.js';
export { FEED_CHANNEL } from './events.sql.js';
export { newestEventAgeSeconds } from './feed-stats.sql.js';
export { eventPurge, purgeOldEvents } from './purge.js';
export {
  appendEvents,
  forgetNotedChanges,
  noteChange,
  noteUpdated,
  type RecordKindFeed,
  type RecordLoader,
  useRecordKinds,
} from './record.js';
export { EVENT_TYPES, type EventType, isEventType, type NewEvent, type RecordKind } from './types.js';
