import { createHash, randomBytes } from 'node:crypto';

// The format of an API key, shared by the folder that issues keys (api-keys) and the one that checks
// them (auth), so neither imports the other's mechanism.

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const API_KEY_PATTERN = /^sfk_[0-9A-Za-z]{32,128}$/;

/** `sfk_` + 40 base62 characters (~238 bits), drawn without modulo bias. */
export function generateApiKey(): string {
  let out = '';
  while (out.length < 40) {
    for (const byte of randomBytes(48)) {
      if (byte < 248 && out.length < 40) out += BASE62[byte % 62];
    }
  }
  return `sfk_${out}`;
}

/** Keys are high-entropy, so a fast hash is enough; only the hash is stored. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}
