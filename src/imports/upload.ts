import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../errors.js';

/**
 * An NDJSON body, streamed to a file under the data dir as it arrives (never held in memory), with what
 * the job needs to know up front: its size and its number of non-blank lines (the job's `total`).
 */
export class UploadedFile {
  /** set once a committed job owns the file (else it is removed when the response is sent) */
  adopted = false;

  constructor(
    readonly name: string,
    readonly path: string,
    readonly bytes: number,
    readonly lines: number,
    readonly sha256: string,
  ) {}

  /**
   * What the request's Idempotency-Key fingerprint sees of the body (it hashes the parsed body as JSON):
   * the content, never the random file name, so a retry of the same bytes is the same request.
   */
  toJSON() {
    return { sha256: this.sha256, bytes: this.bytes };
  }

  remove(): Promise<void> {
    return removeUpload(this.path);
  }
}

export const importsDir = (dataDir: string) => join(dataDir, 'imports');

export const removeUpload = (path: string) => rm(path, { force: true });

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

/** Streams `body` to a new file under `dir`; 413 (and no file left) past `maxBytes`. */
export async function receiveUpload(body: Readable, dir: string, maxBytes: number): Promise<UploadedFile> {
  await mkdir(dir, { recursive: true });
  const name = `${randomUUID()}.ndjson`;
  const path = join(dir, name);
  const hash = createHash('sha256');
  const counter = lineCounter();
  let bytes = 0;
  async function* measured(source: Readable) {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes > maxBytes) throw tooLarge(maxBytes);
      hash.update(chunk);
      counter.add(chunk);
      yield chunk;
    }
  }
  try {
    await pipeline(body, measured, createWriteStream(path));
  } catch (error) {
    await removeUpload(path);
    throw error;
  }
  return new UploadedFile(name, path, bytes, counter.total(), hash.digest('base64url'));
}
