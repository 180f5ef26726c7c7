import type { ColumnType } from 'kysely';

/** Webhooks and their deliveries (migrations/0013_webhooks.sql). */

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

export interface WebhookTable {
  store_id: string;
  id: string;
  url: string;
  events: string[];
  description: string | null;
  secret: string;
  enabled: ColumnType<boolean, boolean | undefined, boolean>;
  failing_since: Timestamp | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface WebhookDeliveryTable {
  store_id: string;
  id: string;
  webhook_id: string;
  event_id: string;
  type: string;
  payload: string;
  status: ColumnType<DeliveryStatus, DeliveryStatus | undefined, DeliveryStatus>;
  attempts: ColumnType<number, number | undefined, number>;
  last_response_status: number | null;
  last_response_body: string | null;
  last_error: string | null;
  next_attempt_at: Timestamp | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface WebhookTables {
  webhooks: WebhookTable;
  webhook_deliveries: WebhookDeliveryTable;
}
