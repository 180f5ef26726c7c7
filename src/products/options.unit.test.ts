import { describe, expect, it } from 'vitest';
import { combinationKey, combinations, MAX_VARIANTS, normalizeOptions, planVariants, skuOf, variantCount } from './options.js';

describe('normalizeOptions', () => {
  it('trims names and values and accepts distinct ones', () => {
    const { options, details } = normalizeOptions([{ name: ' Size ', values: [' S', 'M '] }]);
    expect(options).toEqual([{ name: 'Size', values: ['S', 'M'] }]);
    expect(details).toEqual([]);
  });

  it('names duplicate option names and values, case-insensitively', () => {
    const { details } = normalizeOptions([
      { name: 'Size', values: ['S', 'M', 'm '] },
      { name: 'SIZE ', values: ['x'] },
      { name: 'Color', values: ['Red', 'Blue', 'RED'] },
    ]);
    expect(details.map((d) => d.field)).toEqual(['options[1].name', 'options[0].values[2]', 'options[2].values[2]']);
  });

  it('caps the variants at 2048', () => {
    const values = (n: number) => Array.from({ length: n }, (_, i) => `v${i}`);
    expect(normalizeOptions([{ name: 'a', values: values(2048) }]).details).toEqual([]);
    const over = normalizeOptions([
      { name: 'a', values: values(2) },
      { name: 'b', values: values(1025) },
    ]);
    expect(over.details).toEqual([
      { field: 'options', in: 'body', message: `would generate 2050 variants; at most ${MAX_VARIANTS} are allowed` },
    ]);
  });
});

describe('combinations', () => {
  it('is the cartesian product, first option varying slowest', () => {
    const options = [
      { name: 'Size', values: ['S', 'M'] },
      { name: 'Color', values: ['Red', 'Blue'] },
      { name: 'Fit', values: ['Slim'] },
    ];
    expect(combinations(options)).toEqual([
      { Size: 'S', Color: 'Red', Fit: 'Slim' },
      { Size: 'S', Color: 'Blue', Fit: 'Slim' },
      { Size: 'M', Color: 'Red', Fit: 'Slim' },
      { Size: 'M', Color: 'Blue', Fit: 'Slim' },
    ]);
    expect(variantCount(options)).toBe(4);
  });

  it('is empty without options', () => {
    expect(combinations([])).toEqual([]);
    expect(variantCount([])).toBe(0);
  });

  it('identifies a combination whatever the order and case of option names, but not of values', () => {
    expect(combinationKey({ Size: 'S', Color: 'Red' })).toBe(combinationKey({ color: 'Red', SIZE: 'S' }));
    expect(combinationKey({ Size: 'S' })).not.toBe(combinationKey({ Size: 's' }));
  });
});

describe('planVariants', () => {
  const existing = [
    { id: 'v1', attributes: { Size: 'S', Color: 'Red' } },
    { id: 'v2', attributes: { Size: 'S', Color: 'Blue' } },
    { id: 'v3', attributes: { Size: 'M', Color: 'Red' } },
  ];

  it('keeps surviving combinations, creates new ones, removes vanished ones', () => {
    const plan = planVariants(
      [
        { name: 'color', values: ['Red', 'Green'] },
        { name: 'size', values: ['S', 'M'] },
      ],
      existing,
    );
    expect(plan.keep).toEqual([
      { id: 'v1', position: 0, attributes: { color: 'Red', size: 'S' } },
      { id: 'v3', position: 1, attributes: { color: 'Red', size: 'M' } },
    ]);
    expect(plan.create).toEqual([
      { position: 2, attributes: { color: 'Green', size: 'S' } },
      { position: 3, attributes: { color: 'Green', size: 'M' } },
    ]);
    expect(plan.remove).toEqual(['v2']);
  });

  it('removes everything when options are cleared and keeps everything when unchanged', () => {
    expect(planVariants([], existing)).toEqual({ keep: [], create: [], remove: ['v1', 'v2', 'v3'] });
    const same = planVariants(
      [
        { name: 'Size', values: ['S', 'M'] },
        { name: 'Color', values: ['Red', 'Blue'] },
      ],
      existing,
    );
    expect(same.keep.map((v) => v.id)).toEqual(['v1', 'v2', 'v3']);
    expect(same.create).toHaveLength(1);
    expect(same.remove).toEqual([]);
  });

  it('treats a changed number of options as new combinations', () => {
    const plan = planVariants([{ name: 'Size', values: ['S'] }], existing);
    expect(plan.keep).toEqual([]);
    expect(plan.remove).toEqual(['v1', 'v2', 'v3']);
  });
});

describe('skuOf', () => {
  it('joins the handle and the slugs of the values', () => {
    expect(skuOf('tee', { Size: 'XL', Color: 'Light Blue' })).toBe('tee-xl-light-blue');
    expect(skuOf('tee', { Size: '½', Material: 'Baumwolle & Seide' })).toBe('tee-baumwolle-and-seide');
  });
});
