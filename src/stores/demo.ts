import { randomBytes } from 'node:crypto';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from '../db/index.js';
import { withTx } from '../db/index.js';
import { countStores, createAdmin, createStore } from './stores.service.js';

export const DEMO_SLUG = 'demo';
export const DEMO_EMAIL = 'admin@demo.test';

/** First embedded start with no store at all: a demo store whose credentials land in a 0600 file. */
export async function ensureDemoStore(db: Db, dataDir: string): Promise<string | null> {
  if ((await countStores(db)) > 0) return null;
  const password = randomBytes(18).toString('base64url');
  const store = await withTx(db, async (trx) => {
    const created = await createStore(trx, { slug: DEMO_SLUG, name: 'Demo store' });
    await createAdmin(trx, created.id, { email: DEMO_EMAIL, password });
    return created;
  });
  const file = join(dataDir, 'demo-credentials.json');
  const body = { storeSlug: store.slug, email: DEMO_EMAIL, password };
  writeFileSync(file, `${JSON.stringify(body, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return file;
}
