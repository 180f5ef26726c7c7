// pg's own conversion of a parameter to the text it sends (exported by the package as `pg/lib/utils.js`,
// without types of its own).
declare module 'pg/lib/utils.js' {
  const utils: { prepareValue(value: unknown): string | Buffer | null };
  export default utils;
}
