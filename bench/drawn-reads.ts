import type { SeedInfo } from './seed/seed.js';

/**
 * The URLs of the drawn read scenarios (issue 42): a sync job paging through a catalog or a search box, where no
 * two concurrent requests ask the same page. Each scenario's URLs are every (page, sort) pair of its range; the
 * load driver draws one per request (scenarios.ts), so identical reads made together — which run once and share
 * their answer (src/reads/shared-reads.ts) — are rare, and each request pays its own statement. Pages are kept
 * inside the seeded matches: a page past the end costs a count and nothing else.
 */

const API = '/api/v1';

/** The six orders a client can ask the product list for (updatedAt aside: the seed writes it as createdAt). */
export const PRODUCT_ORDERS = ['-createdAt', 'createdAt', '-price', 'price', '-title', 'title'] as const;

const PAGE = 25;

/** Pages first..last, clamped to the pages `matches` rows fill (at least page 1). */
function pages(first: number, last: number, matches: number): number[] {
  const end = Math.max(1, Math.min(last, Math.ceil(matches / PAGE)));
  const start = Math.min(first, end);
  return Array.from({ length: end - start + 1 }, (_, k) => start + k);
}

function productPages(query: string, pageNumbers: number[]): string[] {
  return PRODUCT_ORDERS.flatMap((sort) => pageNumbers.map((page) => `${API}/products?${query}page=${page}&sort=${sort}`));
}

const searchQuery = (term: string) => `search=${encodeURIComponent(term)}&`;

/** list 25, pages 31–51, any of the six sorts */
export const listPages = (seed: SeedInfo) => productPages('', pages(31, 51, seed.counts.products));

/** the catalog's deep end: pages 1,990–2,010 (or the last 21 pages of a smaller catalog), any of the six sorts */
export function deepListPages(seed: SeedInfo): string[] {
  const last = Math.max(1, Math.ceil(seed.counts.products / PAGE));
  const end = Math.min(2010, last);
  return productPages('', pages(Math.max(1, end - 20), end, seed.counts.products));
}

/** page 2,000 of 25 in the default order (the last page of a catalog under 50,000 products): the one-URL deep page */
export const deepListPage = (seed: SeedInfo) => [`${API}/products?page=${Math.min(2000, Math.ceil(seed.counts.products / PAGE))}`];

/** search matching ~8%, pages 1–30, any sort */
export const wideSearchPages = (seed: SeedInfo) => productPages(searchQuery(seed.wideSearchTerm), pages(1, 30, seed.wideSearchMatches));

/** search matching ~1%, pages 1–4, any sort */
export const narrowSearchPages = (seed: SeedInfo) => productPages(searchQuery(seed.searchTerm), pages(1, 4, seed.searchMatches));

/** list 25 customers, pages 1–200 (newest first, the customers' one order) */
export const customerPages = (seed: SeedInfo) => pages(1, 200, seed.counts.customers).map((page) => `${API}/customers?page=${page}`);
