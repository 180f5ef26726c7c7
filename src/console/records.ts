import { Type } from '@sinclair/typebox';
import type { Db } from '../db/index.js';
import type { ConsoleApi } from './api.js';
import { type ApiRecord, type ListScreen, registerListScreen } from './list-screen.js';
import type { ConsoleRouter } from './router.js';
import type { ConsoleSession } from './sessions.js';
import { jsonBlock } from './view.js';

/**
 * A list screen and a page per record over one API resource (customers, orders, collections): the list is
 * list-screen.ts's (the API list's filters and search, cursor pages both ways, no total), the page shows its
 * parts and the record's JSON as GET /<resource>/{id} sends it. Each screen says which columns and parts it shows.
 */

export type { ApiRecord } from './list-screen.js';

export interface RecordScreen extends ListScreen {
  titleOf: (record: ApiRecord) => string;
  /** the record page's parts above its JSON (markup made with `html`) */
  details: (record: ApiRecord, api: ConsoleApi, session: ConsoleSession) => Promise<string>;
}

const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

export function registerRecordScreen(router: ConsoleRouter, { api, db }: { api: ConsoleApi; db: Db }, screen: RecordScreen): void {
  registerListScreen(router, db, screen);
  router.page(`${screen.resource}/:id`, { params: IdParams }, async ({ params, session }) => {
    const answer = await api.get(session, `${screen.resource}/${encodeURIComponent(params.id)}`);
    const record = answer.body.data;
    const details = await screen.details(record, api, session);
    return { title: screen.titleOf(record) || record.id, nav: screen.nav, body: `${details}${jsonBlock('API JSON', answer.text)}` };
  });
}
