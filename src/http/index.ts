/** The public surface of src/http: what other folders may import. */
export type { App, AppContext, Auth, Revocations } from './context.js';
export { registerDocsUi } from './docs-ui.js';
export { etagOfCanonical, sendStoredRecord } from './etag.js';
export { frameworkErrors } from './framework-errors.js';
export { registerHealthRoutes } from './health.js';
export { announceStrictHandling, guardInput } from './input-guard.js';
export { loggerOptions } from './logging.js';
export { openApiOptions } from './openapi.js';
export { assertAccessDeclared, createRouteMirror } from './routing.js';
export { registerSafeWrites } from './safe-writes.js';
export { capConnections, drainRefusedBody, serverOptions } from './server-limits.js';
export { looksLikeWebUrl, webUrlProblem } from './urls.js';
export { compileBodyCheck, validatorCompiler } from './validation.js';
export { sendWrite } from './write.js';
