import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { Config } from '../config.js';
import type { Db } from '../db/index.js';
import type { AfterWork, EventType, MediaStore } from '../shared/index.js';
import type { Consistency } from './consistency.js';

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** Revoking a credential that processes may hold in memory (src/auth/credential-cache.ts). */
export interface Revocations {
  /** runs `write` (which revokes the credential `tag` and commits), then makes sure no process still trusts it */
  revoking<T>(tag: string, write: () => Promise<T>): Promise<T>;
}

/** What a resource's routes need: handed to each `register…Routes` explicitly, no container. */
export interface AppContext {
  db: Db;
  config: Config;
  media: MediaStore;
  credentials: Revocations;
  /** what every write does after its own work: events, derived changes, stored documents (src/shared/after-work.ts) */
  afterWork: AfterWork;
  /** with read replicas: a write's position on its response and remembered (consistency.ts); else null */
  consistency: Consistency | null;
}

export interface Auth {
  storeId: string;
  scopes: readonly string[];
  kind: 'token' | 'key';
  /** the credential's identity for rate limiting and logs (admin id or key id) */
  principal: string;
  /** what the store calls the credential, for its Requests log: the API key's name, or the admin's email */
  name: string;
  /** the API key's id when the credential is one (its last use is noted by it, src/api-keys/last-used.ts) */
  keyId?: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: Auth;
  }
  interface FastifyContextConfig {
    /** no bearer credential needed */
    public?: boolean;
    /**
     * the scope an API key needs for this route; a function when it depends on the request (POST /imports:
     * the resource's write scope), returning null when the service checks it against the record (jobs)
     */
    scope?: string | ((request: FastifyRequest) => string | null);
    /** what the OpenAPI document says of a scope given as a function (which scope, decided how) */
    scopeNote?: string;
    /** only an access token may call this route, never an API key */
    tokenOnly?: boolean;
    /** the response is one record and carries its ETag (set from the response schema, see http/safe-writes.ts) */
    etag?: boolean;
    /**
     * the event a write appends (docs/events.md), or false for a write that is not a change of the store's
     * records (API keys); every write declares it (http/safe-writes.ts refuses a write route without)
     */
    event?: EventType | false;
    /**
     * `primary`: this GET always reads the primary, never a replica (the feed and its long poll, jobs):
     * what it answers moves without a write of the caller's, so no position of theirs covers it
     */
    reads?: 'primary';
  }
}
