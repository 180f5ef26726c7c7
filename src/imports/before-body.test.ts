import { connect } from 'node:net';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { NDJSON } from '../../test/support/jobs.fixtures.js';
import { createUploadStore, purgeOrphanUploads, type UploadStore } from './index.js';

/**
 * POST /imports checks the whole request before a byte of its body is read (docs/imports.md, "What is
 * checked before the body"), and an upload no job names is removed by the purge ("Uploads no job names").
 */

let t: TestContext;
let uploads: UploadStore;
beforeAll(async () => {
  t = await setupTestApp();
  uploads = createUploadStore(t.config.dataDir, t.database);
});
afterAll(() => t.close());

/** The names of the store's stored uploads (all of them: `before` in the future). */
async function storedUploads(store: TestStore): Promise<string[]> {
  const names: string[] = [];
  for await (const name of uploads.finished(new Date(Date.now() + 60_000))) if (name.startsWith(store.id)) names.push(name);
  return names;
}

/** A POST /imports whose body never ends: only an answer that reads none of it can come back. */
async function endlessUpload(store: TestStore, query: string, contentType: string) {
  const body = new PassThrough();
  body.write('{"title":"First","price":1}\n');
  const reply = await t.app.inject({
    method: 'POST',
    url: `/api/v1/imports?${query}`,
    headers: { authorization: `Bearer ${store.token}`, 'content-type': contentType },
    payload: body,
  });
  body.destroy();
  return { status: reply.statusCode, body: reply.json(), headers: reply.headers };
}

describe('POST /imports is refused before its body is read', () => {
  it('an unknown query name, a bad value, a wrong content type: 400 / 415 while the body is still coming, nothing stored', {
    timeout: 20_000,
  }, async () => {
    const store = await t.newStore();
    const unknown = expectError(
      await endlessUpload(store, 'resource=products&colour=red', NDJSON['content-type']),
      400,
      'VALIDATION_ERROR',
    );
    expect(unknown.details).toContainEqual(expect.objectContaining({ field: 'colour', in: 'query' }));
    const dryRun = expectError(
      await endlessUpload(store, 'resource=products&dryRun=maybe', NDJSON['content-type']),
      400,
      'VALIDATION_ERROR',
    );
    expect(dryRun.details).toContainEqual(expect.objectContaining({ field: 'dryRun', in: 'query' }));
    const format = expectError(await endlessUpload(store, 'resource=products&format=excel', 'text/csv'), 400, 'VALIDATION_ERROR');
    expect(format.details).toContainEqual(expect.objectContaining({ field: 'format', in: 'query' }));
    const resource = expectError(await endlessUpload(store, 'resource=widgets', NDJSON['content-type']), 400, 'VALIDATION_ERROR');
    expect(resource.details).toContainEqual(expect.objectContaining({ field: 'resource', in: 'query' }));
    expectError(await endlessUpload(store, 'resource=products', 'text/plain'), 415, 'UNSUPPORTED_MEDIA_TYPE');
    expectError(await endlessUpload(store, 'resource=products', 'application/json'), 415, 'UNSUPPORTED_MEDIA_TYPE');
    expect(await storedUploads(store)).toEqual([]);
    expect((await t.call(store, 'GET', '/jobs')).body.data).toEqual([]);
  });

  it('over a socket: headers announcing 100 MB and not one byte of body get their 400 / 415 at once', async () => {
    const store = await t.newStore();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as { port: number };
    const headersOnly = (query: string, contentType: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1');
        let answer = '';
        socket.on('data', (data) => {
          answer += data.toString();
          if (answer.includes('\r\n\r\n')) {
            socket.destroy();
            resolve(answer.split('\r\n')[0]);
          }
        });
        socket.on('error', reject);
        socket.setTimeout(10_000, () => reject(new Error('no answer without the body')));
        socket.write(
          `POST /api/v1/imports?${query} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${store.token}\r\n` +
            `Content-Type: ${contentType}\r\nContent-Length: ${100 * 1024 * 1024}\r\n\r\n`,
        );
      });
    expect(await headersOnly('resource=products&colour=red', 'application/x-ndjson')).toBe('HTTP/1.1 400 Bad Request');
    expect(await headersOnly('resource=products', 'text/plain')).toBe('HTTP/1.1 415 Unsupported Media Type');
    expect(await storedUploads(store)).toEqual([]);
  });
});

describe('uploads no job names', () => {
  it('are removed by the purge once stored a while; an upload a job names stays', async () => {
    const store = await t.newStore();
    // what a request leaves when its client goes away right after the last byte: a stored upload, no job
    const orphan = await uploads.receive(Readable.from([Buffer.from('{"title":"Lost","price":1}\n')]), 1024, store.id);
    const posted = await t.call(store, 'POST', '/imports?resource=products', '{"title":"Kept","price":1}\n', NDJSON);
    expect(posted.status).toBe(202);
    const stored = await storedUploads(store);
    expect(stored).toHaveLength(2);
    expect(stored).toContain(orphan.name);

    // a fresh one is left alone (its request may still be creating its job)
    await purgeOrphanUploads(t.database.db, uploads);
    expect(await storedUploads(store)).toContain(orphan.name);

    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await purgeOrphanUploads(t.database.db, uploads, 10)).toBeGreaterThanOrEqual(1);
    const left = await storedUploads(store);
    expect(left).not.toContain(orphan.name);
    expect(left).toHaveLength(1);
    expect(await uploads.open(orphan.name, 0)).toBeNull();
    // the job's upload is still there for it
    expect(await uploads.open(left[0], 0)).not.toBeNull();
  });
});
