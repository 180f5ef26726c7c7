/**
 * WAL positions (PostgreSQL's `pg_lsn`, written `X/Y` in hex) as numbers to compare, and a replica's lag
 * measured from them (src/db/replicas.ts).
 */

const LSN = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i;

/** The position `X/Y` as one 64-bit number; undefined when the text is not one. */
export function lsnValue(text: string): bigint | undefined {
  const match = LSN.exec(text);
  if (!match) return undefined;
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}

/** A 64-bit position as PostgreSQL writes it: `X/Y`. */
export function lsnText(value: bigint): string {
  return `${(value >> 32n).toString(16).toUpperCase()}/${(value & 0xffffffffn).toString(16).toUpperCase()}`;
}

export function parseLsn(text: string): bigint {
  const value = lsnValue(text);
  if (value === undefined) throw new Error(`not a WAL position: ${text}`);
  return value;
}

/** The primary's position, and when the probe read it. */
export interface PrimarySample {
  lsn: bigint;
  at: number;
}

/**
 * How long ago (ms) the primary was first seen at a position the replica has not replayed: 0 when it has
 * replayed the newest sample. Not `now() - pg_last_xact_replay_timestamp()`, which grows while the primary
 * is idle although the replica has everything. Past the oldest sample: at least that sample's age.
 */
export function lagBehind(samples: readonly PrimarySample[], replayed: bigint, now: number): number {
  let firstAhead: PrimarySample | undefined;
  for (let i = samples.length - 1; i >= 0 && samples[i].lsn > replayed; i--) firstAhead = samples[i];
  return firstAhead ? now - firstAhead.at : 0;
}
