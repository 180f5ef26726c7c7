import type { ColumnType } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;

export interface CollectionCondition {
  field: string;
  operator: string;
  value: string;
}

export interface CollectionTable {
  store_id: string;
  id: string;
  title: string;
  handle: string;
  description: string | null;
  image: string | null;
  collection_type: ColumnType<string, string | undefined, string>;
  parent_id: string | null;
  match_type: string | null;
  /** jsonb: parsed on the way out, JSON text on the way in */
  conditions: ColumnType<CollectionCondition[], string | undefined, string>;
  meta_title: string | null;
  meta_description: string | null;
  meta_keywords: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ProductCollectionTable {
  store_id: string;
  collection_id: string;
  product_id: string;
  /** place in the collection's selectedProducts */
  collection_position: number;
  /** place in the product's selectedCollection */
  product_position: number;
  created_at: ColumnType<Date, Date | string | undefined, never>;
}

export interface CollectionTables {
  collections: CollectionTable;
  product_collections: ProductCollectionTable;
}
