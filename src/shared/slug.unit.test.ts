import slugify from '@sindresorhus/slugify';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toSlug } from './slug.js';

describe('toSlug', () => {
  it('is slugify without decamelizing, whether or not the text was slugged before', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string({ maxLength: 80 }), fc.constantFrom('Red', 'XL', 'Größe', 'iPhone 15', 'Ça va')), { maxLength: 20 }),
        (texts) => {
          for (const text of [...texts, ...texts]) expect(toSlug(text)).toBe(slugify(text, { decamelize: false }));
        },
      ),
    );
  });

  it('keeps "iPhone" one word and transliterates', () => {
    expect(toSlug('iPhone Größe')).toBe('iphone-groesse');
    expect(toSlug('iPhone Größe')).toBe('iphone-groesse');
  });
});
