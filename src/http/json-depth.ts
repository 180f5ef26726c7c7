import type { FastifyInstance } from 'fastify';
import { jsonNestsDeeperThan, tooDeep } from '../shared/index.js';

/**
 * The app's one JSON body parser: Fastify's own (with its prototype-poisoning checks), after the depth
 * check, for every route that takes JSON, whatever else the request carries.
 */
export function parseJsonBodies(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (jsonNestsDeeperThan(body as string)) {
      done(tooDeep(), undefined);
      return;
    }
    parse(request, body as string, done);
  });
}
