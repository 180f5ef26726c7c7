import { describe, expect, it } from 'vitest';
import { accessOf, operationIdOf, singular } from './openapi-operations.js';

describe('operationIdOf', () => {
  it('names the CRUD operations of a resource', () => {
    expect(operationIdOf('GET', '/api/v1/products')).toBe('listProducts');
    expect(operationIdOf('POST', '/api/v1/products')).toBe('createProduct');
    expect(operationIdOf('GET', '/api/v1/products/:id')).toBe('getProduct');
    expect(operationIdOf('PATCH', '/api/v1/products/:id')).toBe('updateProduct');
    expect(operationIdOf('DELETE', '/api/v1/products/:id')).toBe('deleteProduct');
    expect(operationIdOf('PUT', '/api/v1/products/:id')).toBe('replaceProduct');
  });

  it('names nested collections, hyphenated names and actions', () => {
    expect(operationIdOf('GET', '/api/v1/products/:id/variants')).toBe('listProductVariants');
    expect(operationIdOf('PATCH', '/api/v1/products/:id/variants/:variantId')).toBe('updateProductVariant');
    expect(operationIdOf('POST', '/api/v1/customers/:customerId/addresses')).toBe('createCustomerAddress');
    expect(operationIdOf('DELETE', '/api/v1/api-keys/:id')).toBe('deleteApiKey');
    expect(operationIdOf('GET', '/api/v1/attribute-sets')).toBe('listAttributeSets');
    expect(operationIdOf('GET', '/api/v1/webhooks/:id/deliveries')).toBe('listWebhookDeliveries');
    expect(operationIdOf('POST', '/api/v1/webhooks/:id/test')).toBe('testWebhook');
    expect(operationIdOf('POST', '/api/v1/webhooks/:id/deliveries/:deliveryId/retry')).toBe('retryWebhookDelivery');
    expect(operationIdOf('GET', '/media/:file')).toBe('getMedia');
  });

  it('names routes it has not seen the same way (bulk jobs)', () => {
    expect(operationIdOf('POST', '/api/v1/imports')).toBe('createImport');
    expect(operationIdOf('GET', '/api/v1/jobs/:id')).toBe('getJob');
    expect(operationIdOf('GET', '/api/v1/jobs/:id/errors')).toBe('listJobErrors');
    expect(operationIdOf('POST', '/api/v1/jobs/:id/cancel')).toBe('cancelJob');
  });

  it('singularizes English plurals and leaves the rest', () => {
    expect(['addresses', 'deliveries', 'statuses', 'boxes', 'media', 'status', 'auth'].map(singular)).toEqual([
      'address',
      'delivery',
      'status',
      'box',
      'media',
      'status',
      'auth',
    ]);
  });
});

describe('accessOf', () => {
  it('names the scope, token-only or public', () => {
    expect(accessOf({ scope: 'orders:write' })).toContain('`orders:write`');
    expect(accessOf({ tokenOnly: true })).toContain('Access tokens only');
    expect(accessOf({ public: true })).toBe('No credentials needed.');
  });
});
