import { readFileSync, writeFileSync } from 'node:fs';

/**
 * A committed generated file, written (`check` false) or compared with what was just generated: the exit
 * code, 1 with `stale` on stderr when the committed file differs or is missing. Shared by every generator
 * that `npm run lint` checks for freshness (OpenAPI document, client types, table types).
 */
export function writeOrCheck(file: string | URL, generated: string, check: boolean, stale: string): number {
  if (!check) {
    writeFileSync(file, generated);
    return 0;
  }
  let committed = '';
  try {
    committed = readFileSync(file, 'utf8');
  } catch {}
  if (committed === generated) return 0;
  process.stderr.write(`${stale}\n`);
  return 1;
}
