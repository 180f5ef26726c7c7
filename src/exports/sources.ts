import type { TSchema } from '@sinclair/typebox';
import { AttributeSet, getAttributeSetsByIds } from '../attribute-sets/index.js';
import { Attribute, getAttributesByIds } from '../attributes/index.js';
import { Collection, getCollectionsByIds } from '../collections/index.js';
import { Customer, getCustomersByIds, getCustomerTextsByIds } from '../customers/index.js';
import type { Db } from '../db/index.js';
import { getInventoryLinesByIds, InventoryLine } from '../locations/index.js';
import { getOrdersByIds, Order } from '../orders/index.js';
import { getProductsByIds, getProductTextsByIds, Product } from '../products/index.js';
import type { ExportTable } from './exports.sql.js';

/** One exportable resource: where its records are, who may read them, and how GET reads and shows them. */
export interface ExportSource {
  /** the path segment: GET /exports/{name} */
  name: string;
  table: ExportTable;
  scope: string;
  /** the record schema GET serializes with: a line is those same bytes */
  schema: TSchema;
  /** the resource's own batch read (the GET mapping), records among `ids` in id order */
  read: (db: Db, storeId: string, ids: string[]) => Promise<object[]>;
  /**
   * the records among `ids` as the JSON texts GET sends, in id order, where the resource keeps stored documents
   * (src/reads/stored-documents.ts): a line is then the document itself, nothing read is mapped or serialized
   */
  texts?: (db: Db, storeId: string, ids: string[]) => Promise<string[]>;
  /** records per chunk: what one round of reads holds in memory */
  chunk: number;
}

export const EXPORT_SOURCES: readonly ExportSource[] = [
  {
    name: 'products',
    table: 'products',
    scope: 'products:read',
    schema: Product,
    read: getProductsByIds,
    texts: getProductTextsByIds,
    chunk: 250,
  },
  {
    name: 'collections',
    table: 'collections',
    scope: 'collections:read',
    schema: Collection,
    read: getCollectionsByIds,
    chunk: 500,
  },
  {
    name: 'attributes',
    table: 'attributes',
    scope: 'attributes:read',
    schema: Attribute,
    read: getAttributesByIds,
    chunk: 500,
  },
  {
    name: 'attributeSets',
    table: 'attribute_sets',
    scope: 'attributes:read',
    schema: AttributeSet,
    read: getAttributeSetsByIds,
    chunk: 1000,
  },
  {
    name: 'customers',
    table: 'customers',
    scope: 'customers:read',
    schema: Customer,
    read: getCustomersByIds,
    texts: getCustomerTextsByIds,
    chunk: 1000,
  },
  {
    name: 'orders',
    table: 'orders',
    scope: 'orders:read',
    schema: Order,
    read: getOrdersByIds,
    chunk: 500,
  },
  {
    // the stock of each item at each location, one line per level, as the inventory import reads it back
    name: 'inventory',
    table: 'inventory_levels',
    scope: 'products:read',
    schema: InventoryLine,
    read: getInventoryLinesByIds,
    chunk: 1000,
  },
];
