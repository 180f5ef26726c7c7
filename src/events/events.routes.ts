import type { App, AppContext } from '../http/index.js';
import { EventListEnvelope, EventsQuery } from './events.schema.js';
import { listEvents } from './events.service.js';

/** GET /events: the store's feed (docs/events.md). Type-only use of http: http runs the write side. */
export async function registerEventRoutes(app: App, { db }: AppContext): Promise<void> {
  app.get(
    '/events',
    {
      config: { scope: 'events:read' },
      schema: {
        tags: ['Events'],
        summary: 'The event feed: every committed change, oldest first; follow pagination.nextCursor (never null) to poll',
        querystring: EventsQuery,
        response: { 200: EventListEnvelope },
      },
    },
    async (request) => listEvents(db, request.auth.storeId, request.query).then((page) => ({ success: true as const, ...page })),
  );
}
