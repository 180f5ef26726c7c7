import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;

export interface AttributeTable {
  store_id: string;
  id: string;
  name: string;
  attribute_set_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AttributeValueTable {
  store_id: string;
  id: string;
  attribute_id: string;
  name: string;
  value: string;
  hex: string | null;
  status: Generated<string>;
  /** the place in the attribute's list; null once the value is dropped from it (kept, inactive) */
  position: number | null;
  created_at: Timestamp;
}

export interface AttributeTables {
  attributes: AttributeTable;
  attribute_values: AttributeValueTable;
}
