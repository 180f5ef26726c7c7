/** The public surface of src/shared: what other folders may import. */

export { EMAIL, Email, MAX_PASSWORD, MIN_PASSWORD, Password } from './account.schema.js';
export type { AfterWork } from './after-work.js';
export { API_KEY_PATTERN, generateApiKey, hashApiKey } from './api-key-format.js';
export { API_PREFIX } from './api-prefix.js';
export { compileBodyCheck, inputError, isStorableDateTime, validatorCompiler } from './body-check.js';
export { canonicalJson, etagOf, etagOfCanonical } from './canonical-json.js';
export { suppliedColumns } from './columns.js';
export {
  ALIAS_OF,
  Alias,
  Body,
  CreatedAt,
  creationTimes,
  DeletedEnvelope,
  Described,
  Envelope,
  ErrorEnvelope,
  ID_PATTERN,
  IdParams,
  ListEnvelope,
  Money,
  Name,
  Nullable,
  type Pagination,
  PastTimestamp,
  PathId,
  pastTimestampDetails,
  RecordId,
  StringEnum,
  Text,
  Timestamp,
  UpdatedAt,
} from './common.schema.js';
export {
  type CustomFields,
  CustomFieldsInput,
  type CustomFieldsPatch,
  CustomFieldsSchema,
  customFieldsDetails,
  customFieldsOutput,
  lockAndMergeCustomFields,
  MAX_CUSTOM_FIELDS,
  mergeCustomFields,
  newCustomFields,
} from './custom-fields.js';
export { iso, isoOrNull, numberOrNull, ok, okList, storedListBytes } from './envelope.js';
export { EVENT_READ_SCOPES, mayReadEventType, missingEventScope, readScopeOfEventType } from './event-scopes.js';
export { EVENT_TYPES, type EventType, isEventType, type NewEvent, RECORD_KINDS, type RecordKind } from './event-types.js';
export { isId, newId, newIdBlock } from './ids.js';
export {
  changesNothing,
  IGNORED_IN_LINES,
  type ImportBatchApplier,
  type ImportBatchLine,
  type ImportBatchResult,
  type ImportHandler,
  type ImportLineHandler,
  type ImportLineOptions,
  type ImportLineOutcome,
  withoutIgnored,
} from './import-lines.js';
export { type Handling, type JsonSchema, shapeDetails } from './input-shape.js';
export { forbiddenKeyMessageOf, forbiddenKeyProblem, MAX_TEXT_DETAILS, textDetails } from './input-text.js';
export { jsonNestsDeeperThan, MAX_JSON_DEPTH, tooDeep } from './json-depth.js';
export { type ByteRange, MEDIA_EXTENSIONS, type MediaFile, type MediaObject, type MediaStore, type MediaType } from './media-store.js';
export {
  adjustedAmount,
  amountDetail,
  compareAmounts,
  currencyDetail,
  decimalOf,
  isAmountText,
  isBelowPrice,
  isCurrencyCode,
  minorUnits,
  type PercentAdjustment,
} from './money.js';
export { dummyPasswordHash, hashPassword, verifyPassword } from './passwords.js';
export { PLACE_FIELDS } from './place.schema.js';
export { deleteStoreByStore, type PurgeJob, purgeOnce, startPurgeLoop } from './purge-loop.js';
export { assertReference, deleteRecord, lockedCurrent, lockRecord, missingReferences, recordExists } from './references.js';
export { ALL_SCOPES, hasScope, scopeResourceOf } from './scopes.js';
export { insertWithFreeSlug, slugBase, suppliedSlug, toSlug } from './slug.js';
export { createStoreShares, type StoreShares } from './store-shares.js';
export { type StoreSlot, takeStoreSlot } from './store-slots.js';
export { MAX_TAGS, normalizeTags, TagsInput } from './tags.js';
export { startWakeLoop, type WakeLoop, type WakeLoopSettings } from './wake-loop.js';
export { looksLikeWebUrl, webUrlProblem } from './web-urls.js';
