export const RESOURCES = ['products', 'collections', 'attributes', 'customers', 'orders', 'webhooks'] as const;
/** `events` is read-only: the feed is written by the changes themselves. */
export const ALL_SCOPES = ['*', ...RESOURCES.flatMap((resource) => [`${resource}:read`, `${resource}:write`]), 'events:read'];

/**
 * What a job or an import of `resource` is scoped by: its own scopes, except inventory (levels per location,
 * CONTRACT §13), which is stock of the catalog and goes with `products:read` / `products:write`.
 */
export const scopeResourceOf = (resource: string): string => (resource === 'inventory' ? 'products' : resource);

export function hasScope(granted: readonly string[], needed: string): boolean {
  return granted.includes('*') || granted.includes(needed);
}
