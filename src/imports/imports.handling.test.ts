import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext, type TestStore } from '../../test/helpers.js';
import { postImport, runStoreJobs } from '../../test/support/jobs.fixtures.js';

// Import lines follow the API's input rule (docs/api.md, "Unknown input is refused"): a name neither the
// write nor the record as GET returns it knows is that line's error, unless the upload said
// `Prefer: handling=lenient`, which the job keeps for every one of its lines.

let t: TestContext;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(() => t.close());

async function runImport(store: TestStore, resource: string, lines: object[], headers: Record<string, string> = {}) {
  const posted = await postImport(t, store, resource, lines, headers);
  expect(posted.status).toBe(202);
  await runStoreJobs(t, store);
  const job = (await t.call(store, 'GET', `/jobs/${posted.body.data.id}`)).body.data;
  const errors = (await t.call(store, 'GET', `/jobs/${job.id}/errors`)).body.data;
  return { job, errors, applied: posted.headers['preference-applied'] };
}

describe('unknown names in import lines', () => {
  it('are the line’s error by default, named by path, while the other lines go on', async () => {
    const store = await t.newStore();
    const { job, errors } = await runImport(store, 'products', [
      { title: 'Kept', handle: 'kept' },
      { title: 'Colour', handle: 'colour', colour: 'red', variants: [] },
      { title: 'Deep', handle: 'deep', options: [{ name: 'Size', values: ['S'], swatch: true }] },
    ]);
    expect(job).toMatchObject({ status: 'succeeded', created: 1, failed: 2 });
    expect(errors.map((error: { line: number; code: string }) => [error.line, error.code])).toEqual([
      [2, 'VALIDATION_ERROR'],
      [3, 'VALIDATION_ERROR'],
    ]);
    expect(errors[0].details).toContainEqual(expect.objectContaining({ field: 'colour', in: 'body' }));
    expect(errors[1].details).toContainEqual(expect.objectContaining({ field: 'options[0].swatch', in: 'body' }));
    expect((await t.call(store, 'GET', '/products?handle=colour')).body.data).toEqual([]);
  });

  it('are ignored, never stored, when the upload asked for lenient handling', async () => {
    const store = await t.newStore();
    const { job, errors, applied } = await runImport(
      store,
      'customers',
      [{ userName: 'ann', email: 'ann@example.com', firstName: 'Ann', favouriteColour: 'red' }],
      { prefer: 'handling=lenient' },
    );
    expect(applied).toBe('handling=lenient');
    expect(job).toMatchObject({ status: 'succeeded', created: 1, failed: 0 });
    expect(errors).toEqual([]);
    const ann = (await t.call(store, 'GET', '/customers?search=ann')).body.data[0];
    expect(ann).toMatchObject({ userName: 'ann', firstName: 'Ann' });
    expect(JSON.stringify(ann)).not.toContain('favouriteColour');
  });

  it('accept a record as GET returns it: its read-only names are ignored, not refused', async () => {
    const store = await t.newStore();
    const created = await t.call(store, 'POST', '/customers', { userName: 'bob', email: 'bob@example.com', password: 'secret-123456' });
    expect(created.status).toBe(201);
    const asRead = { ...created.body.data, firstName: 'Bob' };
    const { job, errors } = await runImport(store, 'customers', [asRead]);
    expect(errors).toEqual([]);
    expect(job).toMatchObject({ status: 'succeeded', updated: 1, failed: 0 });
    expect((await t.call(store, 'GET', `/customers/${created.body.data.id}`)).body.data.firstName).toBe('Bob');
  });
});
