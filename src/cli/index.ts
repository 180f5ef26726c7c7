/** The CLI commands that talk to a running server over HTTP (import, export). Imported by cli.ts only. */
export { runHttpCommand } from './commands.js';
