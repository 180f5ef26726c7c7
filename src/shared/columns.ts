/**
 * The supplied entries of `columns`: a PATCH leaves out every column whose input field was absent
 * (undefined), so the stored value stays; null is a value and is kept.
 */
export function suppliedColumns<T extends Record<string, unknown>>(columns: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(columns).filter(([, value]) => value !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}
