-- Stock for custom checkouts: an order created with inventoryBehaviour "decrement" took its variants'
-- stock; it remembers what it took (variant ids and quantities, summed per variant) so a cancellation
-- with restock puts exactly that back, once (restocked_at is set in the same transaction).
ALTER TABLE orders
  ADD COLUMN inventory_behaviour text NOT NULL DEFAULT 'bypass' CHECK (inventory_behaviour IN ('bypass', 'decrement')),
  ADD COLUMN stock_moves jsonb,
  ADD COLUMN restocked_at timestamptz(3),
  ADD CONSTRAINT orders_stock_moves_check CHECK ((inventory_behaviour = 'decrement') = (stock_moves IS NOT NULL)),
  ADD CONSTRAINT orders_restocked_check CHECK (restocked_at IS NULL OR inventory_behaviour = 'decrement');
