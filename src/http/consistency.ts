import type { FastifyReply, FastifyRequest, RouteHandlerMethod, RouteOptions } from 'fastify';
import { lsnValue, type ReadReason, type Replicas } from '../db/index.js';
import { AppError, invalidField } from '../errors.js';
import type { App, Auth } from './context.js';

/**
 * Read-your-writes on streaming replicas (docs/scaling.md §4). A write's response carries the primary's WAL
 * position after its COMMIT as `Storefront-Consistency`, and the credential's newest position is remembered
 * (`PositionMemory`: Redis when set, else this process). A routed read needs the larger of the header it was
 * sent and the remembered one; `Replicas.choose` gives it a replica that has replayed that far (waiting up to
 * STOREFRONT_REPLICA_WAIT_MS) or the primary. Only the GET handlers of the API are routed: the credential
 * check before them, writes, and routes marked `config.reads: 'primary'` (the feed, jobs) read the primary.
 */

export const CONSISTENCY_HEADER = 'storefront-consistency';

/** Each credential's newest write position, for a while (src/auth/write-positions.ts). */
export interface PositionMemory {
  remember(credential: string, position: string): Promise<void>;
  newest(credential: string): Promise<string | null>;
}

/** What the write door and the webhook worker need of it (on the app's context; null without replicas). */
export interface Consistency {
  /** after a write committed: its position on the response, remembered for the credential */
  afterWrite(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** the primary's WAL position now (a webhook delivery's: read after its events were) */
  position(): Promise<string>;
}

export type ReadObserver = (target: 'primary' | 'replica', reason: ReadReason) => void;

export interface ReadRouting {
  replicas: Replicas;
  memory: PositionMemory;
  waitMs: number;
  observe: ReadObserver;
}

const credentialOf = (auth: Auth) => `${auth.storeId}:${auth.principal}`;

export function createConsistency(replicas: Replicas, memory: PositionMemory): Consistency {
  return {
    async afterWrite(request, reply) {
      // the write has committed: a primary that cannot say its position now does not fail its answer
      const position = await replicas.position().catch(() => null);
      if (position === null) return;
      reply.header(CONSISTENCY_HEADER, position);
      await memory.remember(credentialOf(request.auth), position);
    },
    position: () => replicas.position(),
  };
}

/** The position a request sent; 400 naming the header when it is not one this service gave. */
function sentPosition(request: FastifyRequest): bigint | null {
  const sent = request.headers[CONSISTENCY_HEADER];
  if (sent === undefined || sent === '') return null;
  const value = typeof sent === 'string' ? lsnValue(sent.trim()) : undefined;
  if (value === undefined) throw invalidField(CONSISTENCY_HEADER, 'must be a Storefront-Consistency token a write answered with', 'header');
  return value;
}

async function neededPosition(request: FastifyRequest, memory: PositionMemory): Promise<bigint | null> {
  const sent = sentPosition(request);
  const remembered = request.auth ? await memory.newest(credentialOf(request.auth)) : null;
  const known = remembered === null ? undefined : lsnValue(remembered);
  if (known === undefined) return sent;
  return sent === null || known > sent ? known : sent;
}

/** An error that is the database's (the replica's), not an answer: worth asking the primary. */
const isReplicaFailure = (error: unknown) => !(error instanceof AppError);

function routed(handler: RouteHandlerMethod, routing: ReadRouting): RouteHandlerMethod {
  const { replicas, memory, waitMs, observe } = routing;
  return async function (this: unknown, request, reply) {
    const target = await replicas.choose(await neededPosition(request, memory), waitMs);
    const read = async () => handler.call(this as never, request, reply);
    let fellBack = false;
    const result = await replicas.run(target, read, {
      retryable: isReplicaFailure,
      again: () => !reply.sent && !reply.raw.headersSent,
      onFallback: () => {
        fellBack = true;
      },
    });
    observe(target.replica && !fellBack ? 'replica' : 'primary', fellBack ? 'replica-failed' : target.reason);
    return result;
  };
}

const isRoutedRead = (route: RouteOptions) => {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  return methods.includes('GET') && route.config?.reads !== 'primary';
};

/** Routes every GET registered after this call in `api` (unless marked `config.reads: 'primary'`) as a read. */
export function routeReads(api: App, routing: ReadRouting): void {
  api.addHook('onRoute', (route) => {
    if (isRoutedRead(route)) route.handler = routed(route.handler as RouteHandlerMethod, routing);
  });
}
