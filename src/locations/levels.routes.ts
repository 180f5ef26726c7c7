import type { App, AppContext } from '../http/index.js';
import { sendWrite } from '../http/index.js';
import { okList } from '../shared/index.js';
import { AdjustLevelsBody, LevelListEnvelope, LevelListQuery, LevelsEnvelope, SetLevelsBody } from './levels.schema.js';
import { adjustLevels, listLevels, setLevels } from './levels.service.js';

const tags = ['Inventory levels'];
// One inventory.updated per level a request changes (and product.updated per product whose total moved),
// noted by the work: a request of 250 items is 250 events, not one.
const write = { scope: 'products:write', event: 'inventory.updated' as const };

/** /inventory-levels: stock per item and location (CONTRACT §13). */
export async function registerInventoryLevelRoutes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;
  app.get(
    '/inventory-levels',
    {
      config: { scope: 'products:read' },
      schema: {
        tags,
        summary: 'List inventory levels (filters: productId, variantId, locationId; updatedSince and cursor as every list)',
        querystring: LevelListQuery,
        response: { 200: LevelListEnvelope },
      },
    },
    async (request) => {
      const { data, pagination } = await listLevels(db, request.auth.storeId, request.query);
      return okList(data, pagination);
    },
  );
  app.post(
    '/inventory-levels/set',
    {
      config: write,
      schema: {
        tags,
        summary: 'Set levels (compareAvailable: only if still at that value, else 409 INVENTORY_CHANGED and nothing changes)',
        body: SetLevelsBody,
        response: { 200: LevelsEnvelope },
      },
    },
    (request, reply) => sendWrite(ctx, request, reply, (trx, storeId) => setLevels(trx, storeId, request.body), { events: 'noted' }),
  );
  app.post(
    '/inventory-levels/adjust',
    {
      config: write,
      schema: {
        tags,
        summary: 'Adjust levels by deltas (below 0: 409 INSUFFICIENT_STOCK unless allowNegative); all or nothing',
        body: AdjustLevelsBody,
        response: { 200: LevelsEnvelope },
      },
    },
    (request, reply) => sendWrite(ctx, request, reply, (trx, storeId) => adjustLevels(trx, storeId, request.body), { events: 'noted' }),
  );
}
