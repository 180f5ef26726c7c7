import { randomBytes } from 'node:crypto';

// ObjectId layout: 4-byte seconds, 5 random bytes fixed per process, 3-byte counter.
const processRandom = randomBytes(5).toString('hex');
let counter = randomBytes(3).readUIntBE(0, 3);

export function newId(): string {
  counter = (counter + 1) % 0x1000000;
  const seconds = Math.floor(Date.now() / 1000);
  return seconds.toString(16).padStart(8, '0') + processRandom + counter.toString(16).padStart(6, '0');
}

/**
 * `count` ids at once, for rows made together (a Requests log batch): `prefix` followed by the 6-hex counter
 * from `first` on (wrapping at 0x1000000), the ids newId would have made one call after the other.
 */
export function newIdBlock(count: number): { prefix: string; first: number } {
  const first = (counter + 1) % 0x1000000;
  counter = (counter + count) % 0x1000000;
  const seconds = Math.floor(Date.now() / 1000);
  return { prefix: seconds.toString(16).padStart(8, '0') + processRandom, first };
}

const ID_PATTERN = /^[0-9a-f]{24}$/;

export function isId(value: unknown): value is string {
  return typeof value === 'string' && ID_PATTERN.test(value);
}
