/** Idempotency keys (safe retries, CONTRACT §9.1): parsing, the one execution of a keyed write, the purge. */
export {
  answerInvalidRetry,
  claimFor,
  claimKey,
  type Execution,
  executeOnce,
  isRecorded,
  type Recording,
  sendReplay,
} from './idempotency.js';
export { KEY_HEADER, type KeyClaim } from './keys.js';
export { purgeExpiredKeys, startKeyPurge } from './purge.js';
