export const RESOURCES = ['products', 'collections', 'attributes', 'customers', 'orders', 'webhooks'] as const;
/** `events` is read-only: the feed is written by the changes themselves. */
export const ALL_SCOPES = ['*', ...RESOURCES.flatMap((resource) => [`${resource}:read`, `${resource}:write`]), 'events:read'];

export function hasScope(granted: readonly string[], needed: string): boolean {
  return granted.includes('*') || granted.includes(needed);
}
