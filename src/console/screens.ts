import { registerApiKeysScreen } from './api-keys.screen.js';
import { registerCollectionsScreen } from './collections.screen.js';
import { registerCustomersScreen } from './customers.screen.js';
import { registerEventsScreen } from './events.screen.js';
import { registerExportsScreen } from './exports.screen.js';
import { registerImportsScreen } from './imports.screen.js';
import { registerOrdersScreen } from './orders.screen.js';
import { registerOverviewScreen } from './overview.screen.js';
import { registerProductsScreen } from './products.screen.js';
import { registerRequestsScreen } from './requests.screen.js';
import type { ConsoleRouter } from './router.js';
import type { ScreenDeps } from './screen-deps.js';
import { registerWebhooksScreen } from './webhooks.screen.js';

/**
 * The table of contents of the console: one register per screen (src/console/README.md). A navigation
 * entry (layout.ts, NAV) whose path no screen serves answers "coming".
 */
export function registerScreens(router: ConsoleRouter, deps: ScreenDeps): void {
  registerOverviewScreen(router, deps);
  registerProductsScreen(router, deps);
  registerCollectionsScreen(router, deps);
  registerCustomersScreen(router, deps);
  registerOrdersScreen(router, deps);
  registerImportsScreen(router, deps);
  registerExportsScreen(router, deps);
  registerEventsScreen(router, deps);
  registerWebhooksScreen(router, deps);
  registerRequestsScreen(router, deps);
  registerApiKeysScreen(router, deps);
}
