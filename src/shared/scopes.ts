export const RESOURCES = ['products', 'collections', 'attributes', 'customers', 'orders'] as const;
export const ALL_SCOPES = ['*', ...RESOURCES.flatMap((resource) => [`${resource}:read`, `${resource}:write`])];

export function hasScope(granted: readonly string[], needed: string): boolean {
  return granted.includes('*') || granted.includes(needed);
}
