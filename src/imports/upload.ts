import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { blobSize, deleteBlob, finishedBlobKeys, readBlob, writeBlobStream } from '../blobs/index.js';
import type { Database } from '../db/index.js';
import { AppError } from '../errors.js';

/**
 * Where an import's body is kept between its POST and the end of its job: the one place that decides.
 * On PostgreSQL it is the database (src/blobs), so a job posted to one machine is resumed by any other
 * after a crash; on the embedded engine (one process) it is a file under the data dir.
 */
export interface UploadStore {
  /**
   * streams `body` in as it arrives (never held in memory), measured; 413 (and nothing kept) past `maxBytes`.
   * The name starts with `storeId`, so a store's uploads can be told apart.
   */
  receive(body: Readable, maxBytes: number, storeId: string, inspector?: UploadInspector): Promise<UploadedFile>;
  /** the upload's bytes from byte `start`; null when it is gone */
  open(name: string, start: number): Promise<AsyncIterable<Buffer> | null>;
  remove(name: string): Promise<void>;
  /**
   * the names of the uploads whose bytes were all stored before `before` (an upload still arriving is never
   * one of them): the orphan purge's candidates (orphan-uploads.ts)
   */
  finished(before: Date): AsyncIterable<string>;
}

/**
 * Reads an upload as it arrives, chunk by chunk (a CSV file: csv.ts): it may refuse the upload by throwing,
 * and `finish` gives the number of lines the job will process (instead of the non-blank lines of NDJSON)
 * and what the job must know to read the file (kept in the upload's `csv`).
 */
export interface UploadInspector {
  add(chunk: Buffer): void;
  finish(): { lines: number; csv: object };
}

/** A stored upload, with what the job needs to know up front: its size and its number of non-blank lines. */
export class UploadedFile {
  /** set once a committed job owns the upload (else it is removed when the response is sent) */
  adopted = false;

  constructor(
    private readonly store: UploadStore,
    readonly name: string,
    readonly bytes: number,
    readonly lines: number,
    readonly sha256: string,
    /** a CSV upload: how its job reads it (layout, delimiter, header) */
    readonly csv?: object,
  ) {}

  /**
   * What the request's Idempotency-Key fingerprint sees of the body (it hashes the parsed body as JSON):
   * the content, never the random name, so a retry of the same bytes is the same request.
   */
  toJSON() {
    return { sha256: this.sha256, bytes: this.bytes };
  }

  remove(): Promise<void> {
    return this.store.remove(this.name);
  }
}

const uploadName = (storeId: string) => `${storeId}-${randomUUID()}.ndjson`;
const UPLOAD_NAME = /^(.+)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.ndjson$/;

/** The store an upload's name starts with; undefined for a name no upload has (a file someone else put there). */
export const storeOfUpload = (name: string): string | undefined => UPLOAD_NAME.exec(name)?.[1];

export const importsDir = (dataDir: string) => join(dataDir, 'imports');

export const tooLarge = (limit: number) =>
  new AppError(413, 'PAYLOAD_TOO_LARGE', `The import is larger than the limit of ${limit} bytes (STOREFRONT_IMPORT_MAX_BYTES)`);

const NEWLINE = 0x0a;

/** Counts the lines holding anything but whitespace, across chunks. */
function lineCounter() {
  let lines = 0;
  let lineHasContent = false;
  return {
    add(chunk: Buffer) {
      for (let i = 0; i < chunk.length; i++) {
        const byte = chunk[i];
        if (byte === NEWLINE) {
          if (lineHasContent) lines++;
          lineHasContent = false;
        } else if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d) lineHasContent = true;
      }
    },
    total: () => lines + (lineHasContent ? 1 : 0),
  };
}

/** A body passed through while it is counted, hashed and held to `maxBytes`. */
function measure(maxBytes: number, inspector?: UploadInspector) {
  const hash = createHash('sha256');
  const counter = inspector ?? lineCounter();
  let bytes = 0;
  let inspected: ReturnType<UploadInspector['finish']> | undefined;
  return {
    async *through(source: Readable): AsyncGenerator<Buffer> {
      for await (const chunk of source as AsyncIterable<Buffer>) {
        bytes += chunk.length;
        if (bytes > maxBytes) throw tooLarge(maxBytes);
        hash.update(chunk);
        counter.add(chunk);
        yield chunk;
      }
      // before the stored file is final: a refusal here removes it like any failed upload
      inspected = inspector?.finish();
    },
    result: () => ({
      bytes,
      lines: inspected?.lines ?? (counter as ReturnType<typeof lineCounter>).total(),
      csv: inspected?.csv,
      sha256: hash.digest('base64url'),
    }),
  };
}

/** Uploads as files under `dir`: one process (the embedded engine), or a directory every process shares. */
function fileUploadStore(dir: string): UploadStore {
  const pathOf = (name: string) => join(dir, name);
  const store: UploadStore = {
    async receive(body, maxBytes, storeId, inspector) {
      await mkdir(dir, { recursive: true });
      const name = uploadName(storeId);
      const measured = measure(maxBytes, inspector);
      try {
        await pipeline(body, measured.through, createWriteStream(pathOf(name)));
      } catch (error) {
        await store.remove(name);
        throw error;
      }
      const { bytes, lines, sha256, csv } = measured.result();
      return new UploadedFile(store, name, bytes, lines, sha256, csv);
    },
    async open(name, start) {
      const found = await stat(pathOf(name)).catch(() => null);
      return found?.isFile() ? (createReadStream(pathOf(name), { start, highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>) : null;
    },
    remove: (name) => rm(pathOf(name), { force: true }),
    // a file being written has just been modified: one last written before `before` is complete or abandoned
    async *finished(before) {
      const names = await readdir(dir).catch(() => [] as string[]);
      for (const name of names) {
        const found = storeOfUpload(name) === undefined ? null : await stat(pathOf(name)).catch(() => null);
        if (found?.isFile() && found.mtime < before) yield name;
      }
    },
  };
  return store;
}

const blobKeyOf = (name: string) => `upload/${name}`;

/** Uploads in the database: a job posted to one machine is resumed by any other. */
function databaseUploadStore(database: Pick<Database, 'db'>, legacyDir: string): UploadStore {
  const { db } = database;
  // Jobs queued before uploads moved into the database still find their file in the data dir.
  const legacy = fileUploadStore(legacyDir);
  const store: UploadStore = {
    async receive(body, maxBytes, storeId, inspector) {
      const name = uploadName(storeId);
      const measured = measure(maxBytes, inspector);
      await writeBlobStream(db, blobKeyOf(name), measured.through(body));
      const { bytes, lines, sha256, csv } = measured.result();
      return new UploadedFile(store, name, bytes, lines, sha256, csv);
    },
    async open(name, start) {
      if ((await blobSize(db, blobKeyOf(name))) === null) return legacy.open(name, start);
      return readBlob(db, blobKeyOf(name), start);
    },
    async remove(name) {
      await deleteBlob(db, blobKeyOf(name));
      await legacy.remove(name);
    },
    async *finished(before) {
      for await (const key of finishedBlobKeys(db, blobKeyOf(''), before)) yield key.slice(blobKeyOf('').length);
      yield* legacy.finished(before);
    },
  };
  return store;
}

/** The upload store of this deployment: the database on PostgreSQL, the data dir on the embedded engine. */
export function createUploadStore(dataDir: string, database: Pick<Database, 'db' | 'engine'>): UploadStore {
  return database.engine === 'postgres' ? databaseUploadStore(database, importsDir(dataDir)) : fileUploadStore(importsDir(dataDir));
}
