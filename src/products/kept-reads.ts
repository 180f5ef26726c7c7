import type { AppContext } from '../http/index.js';
import { PageAnchors, SearchCache } from '../reads/index.js';

/** What one app keeps in memory for the product list's pages: a search's matches, the list's page anchors. */
export interface KeptReads {
  searches?: SearchCache;
  anchors?: PageAnchors;
}

const keptOfApps = new WeakMap<AppContext, Required<KeptReads>>();

/**
 * The app's kept reads, one set per app (its context), made on first use: GET /products and the console's product
 * list read the same searches, so a search kept by one serves the other, and the bound in bytes (search-cache.ts,
 * page-anchors.ts) holds for the app, not for each of them. Exact whoever reads them: each page reads its store's
 * catalog version with its rows.
 */
export function keptReadsOf(ctx: AppContext): Required<KeptReads> {
  let kept = keptOfApps.get(ctx);
  if (!kept) {
    kept = { searches: new SearchCache(), anchors: new PageAnchors() };
    keptOfApps.set(ctx, kept);
  }
  return kept;
}
