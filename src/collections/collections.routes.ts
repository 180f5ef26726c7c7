import type { App, AppContext } from '../shared/http.js';

export async function registerCollectionRoutes(_app: App, _ctx: AppContext): Promise<void> {
  // routes of this resource are registered here
}
