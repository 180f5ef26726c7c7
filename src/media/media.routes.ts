import type { App, AppContext } from '../shared/http.js';

/** GET /media/… (public, outside /api/v1) */
export async function registerMediaRoutes(_app: App, _ctx: AppContext): Promise<void> {
  // media serving is registered here
}
