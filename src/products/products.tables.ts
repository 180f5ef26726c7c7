import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** NUMERIC comes back as a string from both drivers (exact); numbers go in. */
type Numeric = ColumnType<string, number | string, number | string>;
type Json<T> = ColumnType<T, string, string>;

export interface ProductOption {
  name: string;
  values: string[];
}

export interface ReturnConfig {
  useGlobalConfig: boolean;
  returnable: boolean;
  exchangeable: boolean;
  customReturnWindow: number | null;
}

export interface ProductTable {
  store_id: string;
  id: string;
  title: string;
  handle: string;
  description: string | null;
  status: Generated<string>;
  badge: string | null;
  price: Numeric | null;
  compare_price: Numeric | null;
  total_stock: number | null;
  images: ColumnType<string[], string[] | undefined, string[]>;
  size_chart: string | null;
  attribute_set_id: string | null;
  /** defaults to [] */
  options: ColumnType<ProductOption[], string | undefined, string>;
  meta_title: string | null;
  meta_description: string | null;
  meta_keywords: string | null;
  return_config: Json<ReturnConfig>;
  average_rating: ColumnType<string, number | string | undefined, number | string>;
  total_reviews: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** sha256 of the last import line applied to the product (migration 0018) */
  import_digest: string | null;
  /** the updated_at that import write left: the line is still applied while updated_at equals it */
  import_digest_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface VariantTable {
  store_id: string;
  id: string;
  product_id: string;
  position: number;
  attributes: Json<Record<string, string>>;
  price: Numeric | null;
  sale_price: Numeric | null;
  stock: Generated<number>;
  sku: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface VariantAttributeValueTable {
  store_id: string;
  variant_id: string;
  attribute_value_id: string;
}

/** A product's stored representation (migrations/0022, products.documents.ts). */
export interface ProductDocumentTable {
  store_id: string;
  product_id: string;
  /** xid: the product row version (xmin) the document was written for */
  written_by: string;
  etag: string;
  body: string;
}

export interface ProductTables {
  products: ProductTable;
  product_documents: ProductDocumentTable;
  variants: VariantTable;
  variant_attribute_values: VariantAttributeValueTable;
}
