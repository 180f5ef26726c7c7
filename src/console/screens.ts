import type { AppContext } from '../http/index.js';
import type { ConsoleRouter } from './router.js';

/**
 * The table of contents of the console: one register per screen (src/console/README.md). A navigation
 * entry (layout.ts, NAV) whose path no screen serves answers "coming".
 */
export function registerScreens(_router: ConsoleRouter, _ctx: AppContext): void {}
