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
 * check before them, writes, and routes marked `config.reads: 'primary'` (the feed, jobs) read the primary;
 * those answer the primary's position as a write does, so what they told about is never read older later.
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

/**
 * The primary's position now on the answer, remembered for the credential: after a write committed, or after a
 * read of the primary told what is there (an event, a finished job). A primary that cannot say its position
 * now does not fail the answer.
 */
async function answerPosition(replicas: Replicas, memory: PositionMemory, request: FastifyRequest, reply: FastifyReply) {
  const position = await replicas.position().catch(() => null);
  if (position === null) return;
  reply.header(CONSISTENCY_HEADER, position);
  await memory.remember(credentialOf(request.auth), position);
}

export function createConsistency(replicas: Replicas, memory: PositionMemory): Consistency {
  return {
    afterWrite: (request, reply) => answerPosition(replicas, memory, request, reply),
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

/**
 * A read of the primary (the feed, jobs, webhook deliveries) tells what the primary holds now: its answer carries
 * the position after it read, remembered for the credential as a write's is, so a record it told about (an
 * event's, an import's) is never read older afterwards, through any process.
 */
function toldFromPrimary(route: RouteOptions, { replicas, memory }: ReadRouting): void {
  // onSend, not after the handler: a handler that sends its answer itself (a stream) is covered too
  const answer = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (reply.statusCode < 300) await answerPosition(replicas, memory, request, reply);
    return payload;
  };
  const existing = route.onSend ?? [];
  route.onSend = [...(Array.isArray(existing) ? existing : [existing]), answer] as RouteOptions['onSend'];
}

type RouteKind = Pick<RouteOptions, 'method' | 'config'>;
const isGet = (route: RouteKind) => (Array.isArray(route.method) ? route.method : [route.method]).includes('GET');

/**
 * A GET of the API not marked `config.reads: 'primary'`: with replicas it is routed, and it honours a sent
 * Storefront-Consistency (the OpenAPI document declares the header on exactly these, by this rule).
 */
export const isRoutedRead = (route: RouteKind): boolean => isGet(route) && route.config?.reads !== 'primary';

/** A GET of the API marked `config.reads: 'primary'`: with replicas its answer carries Storefront-Consistency. */
export const isPrimaryRead = (route: RouteKind): boolean => isGet(route) && route.config?.reads === 'primary';

/**
 * Every GET registered after this call in `api`: routed as a read, or (marked `config.reads: 'primary'`) answering
 * the primary's position.
 */
export function routeReads(api: App, routing: ReadRouting): void {
  api.addHook('onRoute', (route) => {
    if (isRoutedRead(route)) route.handler = routed(route.handler as RouteHandlerMethod, routing);
    else if (isPrimaryRead(route)) toldFromPrimary(route, routing);
  });
}
