/** The public surface of src/shared: what other folders may import. */

export { EMAIL, Email, MAX_PASSWORD, MIN_PASSWORD, Password } from './account.schema.js';
export { API_KEY_PATTERN, generateApiKey, hashApiKey } from './api-key-format.js';
export { suppliedColumns } from './columns.js';
export {
  ALIAS_OF,
  Alias,
  Body,
  creationTimes,
  DeletedEnvelope,
  Envelope,
  ErrorEnvelope,
  ID_PATTERN,
  IdParams,
  ListEnvelope,
  Money,
  Name,
  Nullable,
  PastTimestamp,
  pastTimestampDetails,
  StringEnum,
  Text,
  Timestamp,
} from './common.schema.js';
export { iso, isoOrNull, numberOrNull, ok, okList } from './envelope.js';
export { isId, newId } from './ids.js';
export { changesNothing, IGNORED_IN_LINES, withoutIgnored } from './import-lines.js';
export { escapeLike, ilikeAny, ListQuery, type ListSpec, paginationOf, runList, type SortKeys } from './list.js';
export { type CountedList, countedTotal } from './list-counts.js';
export { dummyPasswordHash, hashPassword, verifyPassword } from './passwords.js';
export { type PurgeJob, purgeOnce, startPurgeLoop } from './purge-loop.js';
export { assertReference, deleteRecord, lockedCurrent, lockRecord, missingReferences, recordExists } from './references.js';
export { ALL_SCOPES, hasScope } from './scopes.js';
export { insertWithFreeSlug, slugBase, suppliedSlug, toSlug } from './slug.js';
export { startWakeLoop, type WakeLoopSettings } from './wake-loop.js';
