import { describe, expect, it } from 'vitest';
import { firstFreeSlug, toSlug } from '../shared/slug.js';
import { handleBaseOf } from './handles.js';

describe('slugs and handles', () => {
  it('makes lowercase ASCII words joined by dashes', () => {
    expect(toSlug('Summer T-Shirt & Co!')).toBe('summer-t-shirt-and-co');
    expect(toSlug('  Déjà   Vu  ')).toBe('deja-vu');
    expect(toSlug('iPhone 15 Pro')).toBe('iphone-15-pro');
    expect(toSlug('already-a-slug')).toBe('already-a-slug');
    expect(toSlug(' -- ')).toBe('');
  });

  it('derives a handle base from a title, bounded and never empty', () => {
    expect(handleBaseOf('Linen Shirt')).toBe('linen-shirt');
    expect(handleBaseOf('日本')).toBe('product');
    const long = handleBaseOf('word '.repeat(100));
    expect(long.length).toBeLessThanOrEqual(200);
    expect(long.endsWith('-')).toBe(false);
  });

  it('picks the first free numeric suffix', () => {
    expect(firstFreeSlug('tee', new Set())).toBe('tee');
    expect(firstFreeSlug('tee', new Set(['tee']))).toBe('tee-2');
    expect(firstFreeSlug('tee', new Set(['tee', 'tee-2', 'tee-3', 'tee-5']))).toBe('tee-4');
    expect(firstFreeSlug('tee', new Set(['tee-2']))).toBe('tee');
  });
});
