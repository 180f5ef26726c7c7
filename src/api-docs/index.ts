/** The public surface of src/api-docs: the OpenAPI document (built from the routes' schemas) and the docs page. */
export { registerDocsUi } from './docs-ui.js';
export { openApiOptions } from './openapi.js';
