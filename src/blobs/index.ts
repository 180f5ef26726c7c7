/** The public surface of src/blobs: bytes in the database, chunked, readable from any process. */
export { blobSize, CHUNK_BYTES, deleteBlob, finishedBlobKeys, putBlob, readBlob, writeBlobStream } from './blobs.js';
export { startBlobPurge } from './purge.js';
