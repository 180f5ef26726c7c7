/**
 * A process's capacity of some work (its open exports: each may hold a database connection for minutes)
 * shared among stores, so that no two stores can take all of it: a quarter of it (at least one unit) stays
 * for stores that hold none. A store that already holds some may take another only while that quarter stays
 * free; a store that holds none may take any free unit except the last one, which goes only to a third store
 * (two stores never hold everything). The same rule as the webhook delivery slots (src/webhooks/worker.ts),
 * kept in memory: it is one process's capacity, so nothing to share with other processes. Below 3 units no
 * such promise can hold; then any free unit is taken.
 */
export interface StoreShares {
  /** a function that gives the unit back (safe to call twice), or null when the store may not take one now */
  take(storeId: string): (() => void) | null;
  /** units held now, per store (tests and metrics) */
  held(storeId: string): number;
}

export function createStoreShares(capacity: number): StoreShares {
  const holding = new Map<string, number>();
  let used = 0;
  const reserve = capacity >= 3 ? Math.max(1, Math.ceil(capacity / 4)) : 0;

  function mayTake(storeId: string): boolean {
    const free = capacity - used;
    if (free <= 0) return false;
    if (reserve === 0) return true;
    if (holding.has(storeId)) return free - 1 >= reserve;
    // the last free unit: only when two other stores already hold some
    return free - 1 >= 1 || holding.size >= 2;
  }

  return {
    take(storeId) {
      if (!mayTake(storeId)) return null;
      used++;
      holding.set(storeId, (holding.get(storeId) ?? 0) + 1);
      let given = false;
      return () => {
        if (given) return;
        given = true;
        used--;
        const left = (holding.get(storeId) ?? 1) - 1;
        if (left > 0) holding.set(storeId, left);
        else holding.delete(storeId);
      };
    },
    held: (storeId) => holding.get(storeId) ?? 0,
  };
}
