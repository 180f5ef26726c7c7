import type { RouteOptions } from 'fastify';
import { CONSISTENCY_HEADER, isKeyedWrite, isPrimaryRead, isRoutedRead } from '../http/index.js';

/**
 * `Storefront-Consistency` in the OpenAPI document (docs/scaling.md §4, read replicas). Declared by the same
 * rules that put it on the wire, never per route: every write of the API (`isKeyedWrite`: the ones the write
 * door answers) and every GET that reads the primary (`isPrimaryRead`: the feed, jobs, deliveries) declares the
 * response header on its 2xx, and every GET routed as a read (`isRoutedRead`) the request header, once in
 * `components.parameters` and referenced by each. The header exists only with replicas configured, so the
 * document describes it the same way whatever this server's configuration.
 */

/** The name of the shared components (`#/components/headers/…`, `#/components/parameters/…`). */
export const CONSISTENCY_COMPONENT = 'Storefront-Consistency';

const RESPONSE_HEADER = {
  type: 'string',
  description:
    'With read replicas (`STOREFRONT_REPLICA_URLS`): an opaque token, the position of the primary once this write ' +
    'committed (on a read of the primary, such as the event feed or a job: once it had read). Send it back in the ' +
    '`Storefront-Consistency` request header of a later read, through any server, and the answer is at least that ' +
    "new; the credential's own reads of the next 60 s are anyway. Absent when the service reads only its primary.",
};

const REQUEST_HEADER = {
  type: 'string',
  description:
    'A token a write answered with in `Storefront-Consistency` (or a webhook delivery carried): with read replicas, ' +
    'this read is answered by a replica only once it has replayed that far (waiting up to ' +
    '`STOREFRONT_REPLICA_WAIT_MS`), else by the primary, so it never shows data older than the token. Your own ' +
    "credential's writes of the last 60 s need none (the service remembers them). With replicas, a value that is " +
    'not such a token is a 400 VALIDATION_ERROR naming the header (`in: header`); without replicas it is ignored.',
  examples: ['0/3000148'],
};

type Schema = Record<string, unknown>;
type Route = Pick<RouteOptions, 'method' | 'config'>;

/** The response headers a 2xx of the route adds: the token, on every write of the API and every read of its primary. */
export function consistencyResponseHeaders(route: Route, outsideApi: boolean): Record<string, object> {
  return !outsideApi && (isKeyedWrite(route) || isPrimaryRead(route)) ? { [CONSISTENCY_COMPONENT]: RESPONSE_HEADER } : {};
}

/** An API route's request headers (its schema's `headers`), with Storefront-Consistency when it is a routed read. */
export function withConsistencyRequestHeader(headers: Schema, route: Route): Schema {
  if (!isRoutedRead(route)) return headers;
  return { ...headers, properties: { ...(headers.properties as Schema), [CONSISTENCY_HEADER]: REQUEST_HEADER } };
}

type Parameter = { in?: string; name?: string; $ref?: string };
type Operations = Record<string, Record<string, { parameters?: Parameter[] }>>;

/** The request header once in `components.parameters`; each operation's parameter a reference to it. */
export function hoistConsistencyParameter(paths: Operations): Record<string, Parameter> {
  const components: Record<string, Parameter> = {};
  for (const operation of Object.values(paths).flatMap((item) => Object.values(item))) {
    if (!operation.parameters) continue;
    operation.parameters = operation.parameters.map((parameter) => {
      if (parameter.in !== 'header' || parameter.name !== CONSISTENCY_HEADER) return parameter;
      components[CONSISTENCY_COMPONENT] ??= parameter;
      return { $ref: `#/components/parameters/${CONSISTENCY_COMPONENT}` };
    });
  }
  return components;
}
