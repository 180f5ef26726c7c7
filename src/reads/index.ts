/** The public surface of src/reads: what other folders may import. */

export { batchedRead } from './batched-reads.js';
export { selectByIds } from './by-ids.js';
export { runList } from './list.js';
export { type CountedList, countedTotal, countedTotalSql, productChangesSql } from './list-counts.js';
export { useCursorSecret } from './list-cursor.js';
export { runListPage } from './list-page.js';
export { escapeLike, ilikeAny, ListQuery, type ListSpec, paginationOf, type SortKeys } from './list-spec.js';
export { PageAnchors } from './page-anchors.js';
export { SearchCache } from './search-cache.js';
export { sharedRead } from './shared-reads.js';
export {
  currentDocumentSql,
  type DocumentOfRow,
  type DocumentRow,
  type DocumentTable,
  documentTexts,
  rebuildDocuments,
  type StoredDocument,
  storedDocument,
  upsertDocuments,
  writeDocuments,
} from './stored-documents.js';
