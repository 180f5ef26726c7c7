import type { AddressTables } from '../addresses/index.js';
import type { ApiKeyTables } from '../api-keys/index.js';
import type { AttributeSetTables } from '../attribute-sets/index.js';
import type { AttributeTables } from '../attributes/index.js';
import type { CollectionTables } from '../collections/index.js';
import type { CustomerTables } from '../customers/index.js';
import type { EventTables } from '../events/index.js';
import type { IdempotencyTables } from '../idempotency/index.js';
import type { JobTables } from '../jobs/index.js';
import type { OrderTables } from '../orders/index.js';
import type { ProductTables } from '../products/index.js';
import type { StoreTables } from '../stores/index.js';
import type { WebhookTables } from '../webhooks/index.js';

/**
 * Kysely's view of the tables in migrations/: every resource declares its tables beside itself
 * (`<resource>.tables.ts`); this composes them. Timestamps come back as Date from both drivers.
 */
export interface DB
  extends StoreTables,
    ApiKeyTables,
    AttributeSetTables,
    AttributeTables,
    ProductTables,
    CollectionTables,
    CustomerTables,
    AddressTables,
    IdempotencyTables,
    EventTables,
    OrderTables,
    WebhookTables,
    JobTables {}
