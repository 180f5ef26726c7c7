import type { AppContext } from '../http/index.js';
import type { ConsoleApi } from './api.js';

/** What a screen's register function is handed (screens.ts). */
export interface ScreenDeps {
  ctx: AppContext;
  api: ConsoleApi;
}
