/** The public surface of src/console: app.ts registers it. */
export { type ConsoleDeps, registerConsole } from './console.routes.js';
