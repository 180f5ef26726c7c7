import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';
import { availableParallelism } from 'node:os';

// scrypt, memory-hard: N=2^14, r=8 (16 MiB per hash). Format: scrypt$N$r$p$salt$hash (base64url).
const PARAMS = { N: 16_384, r: 8, p: 1 };
const KEY_LENGTH = 32;

// Each hash holds 16 MiB while it runs: a burst of logins queues here instead of multiplying memory,
// and leaves libuv's thread pool (4 threads, shared with file I/O) room for other work.
export const MAX_CONCURRENT_HASHES = Math.min(4, Math.max(2, availableParallelism()));
let running = 0;
const waiting: (() => void)[] = [];

async function acquireSlot(): Promise<void> {
  if (running < MAX_CONCURRENT_HASHES) {
    running++;
    return;
  }
  await new Promise<void>((resolve) => waiting.push(resolve));
}

/** Hands the slot straight to the next waiting hash, if any. */
function releaseSlot(): void {
  const next = waiting.shift();
  if (next) next();
  else running--;
}

/** Hashes running and waiting now (for tests and diagnostics). */
export function hashingLoad(): { running: number; waiting: number } {
  return { running, waiting: waiting.length };
}

function scryptOnce(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, { ...options, maxmem: 64 * 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

async function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  await acquireSlot();
  try {
    return await scryptOnce(password, salt, options);
  } finally {
    releaseSlot();
  }
}

/** The one password hash of the service: admins and customers alike. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

// Checked against when the account does not exist, so a miss costs the same time as a wrong password.
let dummyHash: Promise<string> | null = null;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  return dummyHash;
}
