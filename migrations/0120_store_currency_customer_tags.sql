-- Prices in more than one currency (CONTRACT §14), first part: a store's currency, the currency of the base
-- `price`/`comparePrice` of its products and variants (an ISO 4217 code; the CLI checks it against the list,
-- src/shared/currencies.ts), and customers' `tags`, which price lists select buyers by.
ALTER TABLE stores ADD COLUMN currency text NOT NULL DEFAULT 'USD' CONSTRAINT stores_currency_check CHECK (currency ~ '^[A-Z]{3}$');

-- As products' tags (migration 0024): trimmed, unique case-insensitively, kept in the given order.
ALTER TABLE customers ADD COLUMN tags text[] NOT NULL DEFAULT '{}';

-- A stored customer document (0075) written before has no `tags`: its row keeps its version (a column added
-- with a default rewrites nothing), so it would still be read. Without one, reads build the customer from its
-- rows until its next write (or `storefront customers rebuild-documents`) stores it again.
DELETE FROM customer_documents;
