/**
 * How many long polls (`GET /events?wait=`) this process holds at once, and for whom: a held request keeps its
 * connection open for up to a minute, so without a bound one key could take every connection the server
 * accepts (`STOREFRONT_MAX_CONNECTIONS`) and leave other stores unable to connect. A request that would wait
 * enters the gate once (whatever wakes it meanwhile) and leaves it when it is answered; beyond any of the three
 * limits it is refused (the route answers 429). Counted in this process: docs/events.md says what that means
 * with several processes.
 */
export interface LongPollLimits {
  /** waiting requests of one credential (an API key, or an admin's access tokens) */
  perCredential: number;
  /** waiting requests of one store, all its credentials together */
  perStore: number;
  /** waiting requests of every store together: half of the connections the server accepts */
  total: number;
}

export interface LongPollGate {
  /** a function that leaves the gate (safe to call twice), or null when a limit is reached */
  enter(storeId: string, principal: string): (() => void) | null;
  /** requests now inside (tests and metrics read it) */
  count(): number;
}

export const LONG_POLLS_PER_CREDENTIAL = 10;
export const LONG_POLLS_PER_STORE = 50;

/** The limits for a server that accepts `maxConnections`: long polls never take more than half of them. */
export function longPollLimits(maxConnections: number): LongPollLimits {
  return {
    perCredential: LONG_POLLS_PER_CREDENTIAL,
    perStore: LONG_POLLS_PER_STORE,
    total: Math.max(1, Math.floor(maxConnections / 2)),
  };
}

export function createLongPollGate(limits: LongPollLimits): LongPollGate {
  const perStore = new Map<string, number>();
  const perCredential = new Map<string, number>();
  let total = 0;
  const add = (counts: Map<string, number>, key: string, by: number) => {
    const next = (counts.get(key) ?? 0) + by;
    if (next > 0) counts.set(key, next);
    else counts.delete(key);
  };
  return {
    enter(storeId, principal) {
      // a principal names a key or an admin, both of one store; the store in the key keeps it unambiguous
      const credential = `${storeId}\u0000${principal}`;
      if (total >= limits.total) return null;
      if ((perStore.get(storeId) ?? 0) >= limits.perStore) return null;
      if ((perCredential.get(credential) ?? 0) >= limits.perCredential) return null;
      total++;
      add(perStore, storeId, 1);
      add(perCredential, credential, 1);
      let left = false;
      return () => {
        if (left) return;
        left = true;
        total--;
        add(perStore, storeId, -1);
        add(perCredential, credential, -1);
      };
    },
    count: () => total,
  };
}
