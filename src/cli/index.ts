/**
 * The command table, for tests and tools that walk the commands. Nothing in src/ imports the CLI:
 * bin/storefront.mjs runs main.ts, which loads each command's handlers when it runs.
 */
export { type CliCommand, COMMANDS, type OptionValues } from './command-table.js';
