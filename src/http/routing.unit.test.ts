import { describe, expect, it } from 'vitest';
import { assertAccessDeclared } from './routing.js';

describe('declared access', () => {
  it('refuses a route that declares neither a scope, token-only nor public', () => {
    expect(() => assertAccessDeclared({ method: 'GET', url: '/api/v1/things', config: {} })).toThrow(/declares no access/);
    expect(() => assertAccessDeclared({ method: 'GET', url: '/api/v1/things' })).toThrow(/declares no access/);
  });
  it('accepts each of the three declarations', () => {
    for (const config of [{ scope: 'products:read' }, { tokenOnly: true }, { public: true }]) {
      expect(() => assertAccessDeclared({ method: 'GET', url: '/api/v1/things', config })).not.toThrow();
    }
  });
});
