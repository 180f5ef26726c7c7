import { describe, expect, it } from 'vitest';
import { EVENT_READ_SCOPES, mayReadEventType, missingEventScope, readScopeOfEventType } from './event-scopes.js';
import { EVENT_TYPES } from './event-types.js';

describe('event read scopes', () => {
  it('maps each kind of event to the read scope of its resource', () => {
    expect(readScopeOfEventType('product.created')).toBe('products:read');
    expect(readScopeOfEventType('collection.deleted')).toBe('collections:read');
    expect(readScopeOfEventType('attribute.updated')).toBe('attributes:read');
    expect(readScopeOfEventType('attributeSet.created')).toBe('attributes:read');
    expect(readScopeOfEventType('customer.updated')).toBe('customers:read');
    expect(readScopeOfEventType('address.created')).toBe('customers:read');
    expect(readScopeOfEventType('order.created')).toBe('orders:read');
    expect(readScopeOfEventType('webhook.test')).toBe('*');
  });

  it('covers every event type of the feed with a narrow scope', () => {
    for (const type of EVENT_TYPES) expect(readScopeOfEventType(type)).not.toBe('*');
    expect([...EVENT_READ_SCOPES].sort()).toEqual([
      'attributes:read',
      'collections:read',
      'customers:read',
      'orders:read',
      'products:read',
    ]);
  });

  it('names the first missing scope; * needs all of them', () => {
    expect(missingEventScope(['products:read'], ['product.created', 'product.updated'])).toBeNull();
    expect(missingEventScope(['products:read'], ['product.created', 'order.created'])).toBe('orders:read');
    expect(missingEventScope(['webhooks:write'], ['customer.created'])).toBe('customers:read');
    expect(missingEventScope(['*'], ['*'])).toBeNull();
    expect(missingEventScope(EVENT_READ_SCOPES, ['*'])).toBeNull();
    expect(missingEventScope(['products:read', 'orders:read'], ['*'])).toBe('collections:read');
    expect(mayReadEventType(['customers:read'], 'address.deleted')).toBe(true);
    expect(mayReadEventType(['products:read'], 'address.deleted')).toBe(false);
  });
});
