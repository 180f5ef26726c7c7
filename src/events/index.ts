/** The event feed (CONTRACT-level: every committed change is an event): the write side, GET /events, retention. */

export { registerEventRoutes } from './events.routes.js';
export { EventListEnvelope } from './events.schema.js';
export type { EventTables } from './events.tables.js';
export { eventPurge, purgeOldEvents } from './purge.js';
export {
  appendEvents,
  forgetNotedChanges,
  loadRecordsWith,
  noteChange,
  noteUpdated,
  type RecordLoader,
} from './record.js';
export { EVENT_TYPES, type EventType, isEventType, type NewEvent, type RecordKind } from './types.js';
