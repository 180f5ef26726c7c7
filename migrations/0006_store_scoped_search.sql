-- Search indexes scoped to their store. The trigram indexes of 0001–0004 spanned every store, so one
-- store's search read (and rechecked) the matching entries of all the others: its cost grew with
-- every other store's data. btree_gin lets a GIN index lead with store_id, so a search reads only its
-- own store's entries (`store_id = $1 AND col ILIKE $2` is one index condition).

CREATE EXTENSION IF NOT EXISTS btree_gin;

DROP INDEX attribute_sets_name_trgm;
CREATE INDEX attribute_sets_name_trgm ON attribute_sets USING gin (store_id, name gin_trgm_ops);

DROP INDEX attributes_name_trgm;
CREATE INDEX attributes_name_trgm ON attributes USING gin (store_id, name gin_trgm_ops);

DROP INDEX products_title_trgm;
CREATE INDEX products_title_trgm ON products USING gin (store_id, title gin_trgm_ops);
DROP INDEX products_handle_trgm;
CREATE INDEX products_handle_trgm ON products USING gin (store_id, handle gin_trgm_ops);

DROP INDEX variants_sku_trgm;
CREATE INDEX variants_sku_trgm ON variants USING gin (store_id, sku gin_trgm_ops);

DROP INDEX collections_title_trgm;
CREATE INDEX collections_title_trgm ON collections USING gin (store_id, title gin_trgm_ops);
DROP INDEX collections_handle_trgm;
CREATE INDEX collections_handle_trgm ON collections USING gin (store_id, handle gin_trgm_ops);

DROP INDEX customers_user_name_trgm;
CREATE INDEX customers_user_name_trgm ON customers USING gin (store_id, user_name gin_trgm_ops);
DROP INDEX customers_email_trgm;
CREATE INDEX customers_email_trgm ON customers USING gin (store_id, email gin_trgm_ops);
DROP INDEX customers_first_name_trgm;
CREATE INDEX customers_first_name_trgm ON customers USING gin (store_id, first_name gin_trgm_ops);
DROP INDEX customers_last_name_trgm;
CREATE INDEX customers_last_name_trgm ON customers USING gin (store_id, last_name gin_trgm_ops);
DROP INDEX customers_phone_number_trgm;
CREATE INDEX customers_phone_number_trgm ON customers USING gin (store_id, phone_number gin_trgm_ops);
DROP INDEX customers_business_name_trgm;
CREATE INDEX customers_business_name_trgm ON customers USING gin (store_id, business_name gin_trgm_ops);

DROP INDEX orders_custom_order_id_trgm;
CREATE INDEX orders_custom_order_id_trgm ON orders USING gin (store_id, custom_order_id gin_trgm_ops);
DROP INDEX orders_contact_email_trgm;
CREATE INDEX orders_contact_email_trgm ON orders USING gin (store_id, contact_email gin_trgm_ops);
DROP INDEX orders_shipping_first_name_trgm;
CREATE INDEX orders_shipping_first_name_trgm ON orders USING gin (store_id, shipping_first_name gin_trgm_ops);
DROP INDEX orders_shipping_last_name_trgm;
CREATE INDEX orders_shipping_last_name_trgm ON orders USING gin (store_id, shipping_last_name gin_trgm_ops);
DROP INDEX orders_billing_first_name_trgm;
CREATE INDEX orders_billing_first_name_trgm ON orders USING gin (store_id, billing_first_name gin_trgm_ops);
DROP INDEX orders_billing_last_name_trgm;
CREATE INDEX orders_billing_last_name_trgm ON orders USING gin (store_id, billing_last_name gin_trgm_ops);
