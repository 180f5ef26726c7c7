/** The public surface of src/request-log: the Requests log of each store (CONTRACT §12). */
export { KEEP_PER_STORE, purgeRequestLog } from './purge.js';
export { type RequestLog, startRequestLog } from './request-log.js';
export {
  type ErrorGroup,
  listRequests,
  type RequestListQuery,
  type RequestOutput,
  type RequestPage,
  recentErrorGroups,
  requestFilterChoices,
  STATUS_CLASSES,
  type StatusClass,
} from './request-log.service.js';
