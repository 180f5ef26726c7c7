import { hasScope } from './scopes.js';

/**
 * The read scope that covers each kind of event: the one mapping from an event type to what a credential
 * must hold to see it, wherever events leave the service (the feed, webhooks). An event type is
 * `<kind>.<change>`; a kind not listed here is readable by no narrow scope (only `*`).
 */
const READ_SCOPE_OF_KIND: Readonly<Record<string, string>> = {
  product: 'products:read',
  collection: 'collections:read',
  attribute: 'attributes:read',
  attributeSet: 'attributes:read',
  customer: 'customers:read',
  address: 'customers:read',
  order: 'orders:read',
  inventory: 'products:read',
  // price lists (CONTRACT §14) are read and written with the products' scopes
  priceList: 'products:read',
};

/** Every read scope some event type needs: what `*` (all types) needs. */
export const EVENT_READ_SCOPES: readonly string[] = [...new Set(Object.values(READ_SCOPE_OF_KIND))];

/** The scope needed to see events of `type` (`product.created` -> `products:read`); `*` needs `*`. */
export function readScopeOfEventType(type: string): string {
  const kind = type.slice(0, type.lastIndexOf('.'));
  return READ_SCOPE_OF_KIND[kind] ?? '*';
}

/**
 * The first scope `granted` lacks to see every type in `types` (`*` standing for all of them), or null when
 * it has them all: the 403 names it.
 */
export function missingEventScope(granted: readonly string[], types: readonly string[]): string | null {
  const needed = types.includes('*') ? EVENT_READ_SCOPES : types.map(readScopeOfEventType);
  return needed.find((scope) => !hasScope(granted, scope)) ?? null;
}

/** Whether `granted` may see events of `type`. */
export const mayReadEventType = (granted: readonly string[], type: string) => hasScope(granted, readScopeOfEventType(type));
