/** The public surface of src/http: what other folders may import. */
export { type Answer, type AnswerObserver, observeAnswers, routeOf } from './answered.js';
export {
  CONSISTENCY_HEADER,
  type Consistency,
  createConsistency,
  isPrimaryRead,
  isRoutedRead,
  type PositionMemory,
  type ReadObserver,
  routeReads,
} from './consistency.js';
export type { App, AppContext, Auth, Revocations } from './context.js';
export { sendStoredList, sendStoredRecord } from './etag.js';
export { frameworkErrors } from './framework-errors.js';
export { registerHealthRoutes } from './health.js';
export { announceHandling, guardInput, guardRequestLine, handlingOf } from './input-guard.js';
export { parseJsonBodies } from './json-depth.js';
export { type LazySchemas, lazySchemas } from './lazy-schemas.js';
export { loggerOptions } from './logging.js';
export { assertAccessDeclared, createRouteMirror } from './routing.js';
export { isKeyedWrite, registerSafeWrites } from './safe-writes.js';
export { capConnections, drainRefusedBody, serverOptions } from './server-limits.js';
export { sendWrite } from './write.js';
