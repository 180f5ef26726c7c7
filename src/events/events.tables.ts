import type { ColumnType, Generated } from 'kysely';

/** The event feed's table (migrations/0012_events.sql). xid and seq are read as text (64-bit). */
export interface EventTable {
  store_id: string;
  xid: Generated<string>;
  seq: Generated<string>;
  id: string;
  type: string;
  data: ColumnType<unknown, string, never>;
  created_at: ColumnType<Date, Date | string | undefined, never>;
}

export interface EventTables {
  events: EventTable;
}
