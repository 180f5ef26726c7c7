import { randomInt } from 'node:crypto';

// Uppercase letters and digits without the look-alikes 0/O and 1/I/L, so numbers read out on the phone.
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const LENGTH = 10;

/** `ORD-` and 10 random characters (31^10 ≈ 8·10^14 values); the unique index and a retry settle the rare collision. */
export function generateOrderNumber(): string {
  let suffix = '';
  for (let i = 0; i < LENGTH; i++) suffix += ALPHABET[randomInt(ALPHABET.length)];
  return `ORD-${suffix}`;
}
