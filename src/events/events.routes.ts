import type { Database } from '../db/index.js';
import type { App, AppContext } from '../http/index.js';
import { EventListEnvelope, EventsQuery } from './events.schema.js';
import { listEvents } from './events.service.js';
import { createLongPollGate, longPollLimits } from './long-poll-gate.js';
import { createFeedWaiters } from './waiters.js';

/**
 * GET /events: the store's feed (docs/events.md), with its long polls held in this process's waiters until
 * the database announces a commit. Stopping the server answers every waiter at once (preClose), so a
 * graceful stop does not wait out their `wait`. Type-only use of http: http runs the write side.
 */
export async function registerEventRoutes(app: App, { db, config }: AppContext, listen: Database['listen']): Promise<void> {
  const waiters = createFeedWaiters(db, listen, app.log);
  const gate = createLongPollGate(longPollLimits(config.maxConnections));
  app.addHook('preClose', async () => waiters.release());
  app.addHook('onClose', async () => waiters.close());
  app.get(
    '/events',
    {
      // the feed promises never to skip an event: its cursor and long poll read the primary
      config: { scope: 'events:read', reads: 'primary' },
      schema: {
        tags: ['Events'],
        summary:
          'The event feed: every committed change the credential may read, oldest first; follow pagination.nextCursor (never null), with wait= to be answered as soon as the next event commits',
        querystring: EventsQuery,
        response: { 200: EventListEnvelope },
      },
    },
    async (request, reply) => {
      const gone = new AbortController();
      if (request.query.wait !== undefined) {
        // A held request sends nothing until it is answered: the idle-socket cut must not fall inside the wait.
        const socket = request.raw.socket as { setTimeout?: (ms: number) => unknown } | undefined;
        socket?.setTimeout?.(config.socketTimeoutMs + request.query.wait * 1000);
        reply.raw.once('finish', () => socket?.setTimeout?.(config.socketTimeoutMs));
        reply.raw.once('close', () => gone.abort());
      }
      const page = await listEvents(db, { waiters, gate }, request.auth, request.query, gone.signal);
      return { success: true as const, ...page };
    },
  );
}
