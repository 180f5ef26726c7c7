import type { FastifyInstance } from 'fastify';
import { jsonNestsDeeperThan, tooDeep } from '../shared/index.js';

/**
 * The app's one JSON body parser: Fastify's own, after the depth check, for every route that takes JSON,
 * whatever else the request carries. Its prototype-poisoning checks are off here because they answered
 * valid JSON with "The body is not valid JSON": JSON.parse keeps `__proto__` an own key (never the
 * prototype), and the input guard (input-guard.ts, app-wide, before any route's own hooks) refuses it, like
 * `constructor` and `prototype`, at any depth with a 400 naming the field (src/shared/input-text.ts).
 */
export function parseJsonBodies(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('ignore', 'ignore');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (jsonNestsDeeperThan(body as string)) {
      done(tooDeep(), undefined);
      return;
    }
    parse(request, body as string, done);
  });
}
