import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adjustedAmount } from '../shared/index.js';
import {
  type FixedPrice,
  type ResolveContext,
  type ResolvedPrice,
  type ResolverItem,
  type ResolverList,
  resolvePrices,
} from './resolve.js';

/**
 * The resolver against a plain reference implementation of CONTRACT §14, written here from the contract's
 * words with integer minor units (BigInt) instead of decimal strings, over generated lists, dates, tags and prices.
 */

const DIGITS: Record<string, number> = { USD: 2, EUR: 2, JPY: 0, KWD: 3 };
const CURRENCIES = Object.keys(DIGITS);
const AT = new Date('2026-06-15T12:00:00.000Z');
const TIMES = [null, '2026-06-01T00:00:00.000Z', '2026-06-15T12:00:00.000Z', '2026-06-30T00:00:00.000Z'];

/** Minor units as the decimal text of an amount: 1999 with 2 digits is "19.99". */
function text(units: bigint, digits: number): string {
  if (digits === 0) return units.toString();
  const padded = units.toString().padStart(digits + 1, '0');
  return `${padded.slice(0, -digits)}.${padded.slice(-digits)}`;
}

/** A percentage in hundredths (1250 is 12.5%) applied to minor units, rounded half-up. */
function adjustUnits(units: bigint, hundredths: bigint, decrease: boolean): bigint {
  const scaled = units * (decrease ? 10000n - hundredths : 10000n + hundredths);
  return (scaled * 2n + 10000n) / 20000n;
}

interface Case {
  storeCurrency: string;
  context: Omit<ResolveContext, 'storeCurrency'>;
  lists: (ResolverList & { hundredths: bigint | null })[];
  items: (ResolverItem & { units: bigint | null; compareUnits: bigint | null })[];
  fixed: (FixedPrice & { units: bigint })[];
}

/** The contract, read plainly: which lists apply, the lowest fixed, else the lowest adjusted, else base, else none. */
function reference(c: Case): { price: string | null; priceListId: string | null; basis: string }[] {
  const digits = DIGITS[c.context.currency];
  const customer = c.context.customerTags?.map((tag) => tag.toLowerCase()) ?? null;
  const applies = (list: Case['lists'][number]) =>
    list.status === 'active' &&
    list.currency === c.context.currency &&
    (list.startsAt === null || list.startsAt.getTime() <= AT.getTime()) &&
    (list.endsAt === null || AT.getTime() < list.endsAt.getTime()) &&
    (list.customerTags.length === 0 || (customer !== null && list.customerTags.some((tag) => customer.includes(tag.toLowerCase()))));
  const older = (a: ResolverList, b: ResolverList) =>
    a.createdAt.getTime() < b.createdAt.getTime() || (a.createdAt.getTime() === b.createdAt.getTime() && a.id < b.id);
  return c.items.map((item) => {
    const itemId = item.variantId ?? item.productId;
    let best: { units: bigint; list: ResolverList } | null = null;
    for (const row of c.fixed) {
      const list = c.lists.find((candidate) => candidate.id === row.listId);
      if (!list || !applies(list) || row.itemId !== itemId) continue;
      if (!best || row.units < best.units || (row.units === best.units && older(list, best.list))) best = { units: row.units, list };
    }
    if (best) return { price: text(best.units, digits), priceListId: best.list.id, basis: 'fixed' };
    if (c.context.currency !== c.storeCurrency || item.units === null) return { price: null, priceListId: null, basis: 'unavailable' };
    for (const list of c.lists) {
      if (!applies(list) || list.hundredths === null || !list.adjustment) continue;
      const units = adjustUnits(item.units, list.hundredths, list.adjustment.type === 'percentageDecrease');
      if (!best || units < best.units || (units === best.units && older(list, best.list))) best = { units, list };
    }
    if (best) return { price: text(best.units, digits), priceListId: best.list.id, basis: 'adjustment' };
    return { price: text(item.units, digits), priceListId: null, basis: 'base' };
  });
}

// small amounts often (so equal prices, and ties between lists, are common), large ones too
const unitsArb = fc.oneof(fc.bigInt({ min: 0n, max: 30n }), fc.bigInt({ min: 0n, max: 10_000_000n }));
const tagsArb = fc.subarray(['vip', 'B2B', 'eu']);
const timeArb = fc.constantFrom(...TIMES).map((time) => (time === null ? null : new Date(time)));

const caseArb = fc
  .record({
    storeCurrency: fc.constantFrom(...CURRENCIES),
    currency: fc.constantFrom(...CURRENCIES),
    customerTags: fc.option(fc.subarray(['VIP', 'b2b', 'retail']), { nil: null }),
    lists: fc.array(
      fc.record({
        currency: fc.constantFrom(...CURRENCIES),
        status: fc.constantFrom('active', 'active', 'draft'),
        startsAt: timeArb,
        endsAt: timeArb,
        customerTags: tagsArb,
        adjustment: fc.option(fc.record({ decrease: fc.boolean(), hundredths: fc.integer({ min: 0, max: 10000 }) }), { nil: null }),
        createdSecond: fc.integer({ min: 0, max: 3 }),
      }),
      { maxLength: 8 },
    ),
    items: fc.array(fc.record({ units: fc.option(unitsArb, { nil: null }), extra: fc.bigInt({ min: 0n, max: 500n }) }), {
      minLength: 1,
      maxLength: 4,
    }),
    fixed: fc.array(fc.record({ list: fc.nat(), item: fc.nat(), units: unitsArb }), { maxLength: 12 }),
  })
  .map((raw): Case => {
    const lists = raw.lists.map((list, index) => {
      // an adjustment exists only in the store's currency (the service refuses it elsewhere)
      const adjustment = list.currency === raw.storeCurrency ? list.adjustment : null;
      return {
        id: `list-${(7 - index).toString()}`,
        currency: list.currency,
        status: list.status,
        startsAt: list.startsAt,
        endsAt: list.endsAt,
        customerTags: list.customerTags,
        adjustment: adjustment && {
          type: adjustment.decrease ? ('percentageDecrease' as const) : ('percentageIncrease' as const),
          value: Number(text(BigInt(adjustment.hundredths), 2)),
        },
        hundredths: adjustment ? BigInt(adjustment.hundredths) : null,
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, list.createdSecond)),
      };
    });
    const digits = DIGITS[raw.storeCurrency];
    const items = raw.items.map((item, index) => ({
      productId: `product-${index}`,
      variantId: index % 2 === 0 ? null : `variant-${index}`,
      units: item.units,
      compareUnits: item.units === null ? null : item.units + item.extra,
      price: item.units === null ? null : text(item.units, digits),
      comparePrice: item.units === null ? null : text(item.units + item.extra, digits),
    }));
    const seen = new Set<string>();
    const fixed =
      lists.length === 0
        ? []
        : raw.fixed.flatMap((row) => {
            const list = lists[row.list % lists.length];
            const item = items[row.item % items.length];
            const itemId = item.variantId ?? item.productId;
            if (seen.has(`${list.id}/${itemId}`)) return [];
            seen.add(`${list.id}/${itemId}`);
            return [{ listId: list.id, itemId, units: row.units, price: text(row.units, DIGITS[list.currency]), comparePrice: null }];
          });
    const context = { currency: raw.currency, customerTags: raw.customerTags, at: AT };
    return { storeCurrency: raw.storeCurrency, context, lists, items, fixed };
  });

const summary = (resolved: ResolvedPrice) => ({
  price: resolved.price === null ? null : Number(resolved.price),
  priceListId: resolved.priceListId,
  basis: resolved.basis,
});

describe('the price resolver (CONTRACT §14)', () => {
  it('agrees with the plain reference over generated lists, dates, tags and prices', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const resolved = resolvePrices(c.items, c.lists, c.fixed, { ...c.context, storeCurrency: c.storeCurrency });
        const expected = reference(c).map((row) => ({ ...row, price: row.price === null ? null : Number(row.price) }));
        expect(resolved.map(summary)).toEqual(expected);
        for (const row of resolved) expect(row.currency).toBe(c.context.currency);
      }),
      { numRuns: 2000 },
    );
  });

  it('rounds adjusted prices half-up to the minor unit, exactly', () => {
    const cases: [string, 'percentageDecrease' | 'percentageIncrease', number, string, string][] = [
      ['19.99', 'percentageDecrease', 15, 'USD', '16.99'], // 16.9915
      ['10.01', 'percentageDecrease', 50, 'USD', '5.01'], // 5.005: the half goes up
      ['0.05', 'percentageDecrease', 10, 'USD', '0.05'], // 0.045
      ['999', 'percentageDecrease', 33.3, 'JPY', '666'], // 666.333
      ['1001', 'percentageDecrease', 50, 'JPY', '501'], // 500.5
      ['1.235', 'percentageIncrease', 10, 'KWD', '1.359'], // 1.3585
      ['0.1', 'percentageIncrease', 20, 'EUR', '0.12'], // 0.1 * 1.2 is 0.12000000000000001 in binary floats
      ['33.33', 'percentageIncrease', 0, 'USD', '33.33'],
      ['33.33', 'percentageDecrease', 100, 'USD', '0'],
    ];
    for (const [base, type, value, currency, expected] of cases) {
      expect(adjustedAmount(base, { type, value }, currency), `${base} ${type} ${value}% ${currency}`).toBe(expected);
    }
  });

  it('breaks a tie on the list created first, and names the list of a fixed price', () => {
    const older = { id: 'b', currency: 'EUR', status: 'active', startsAt: null, endsAt: null, customerTags: [], adjustment: null };
    const lists = [
      { ...older, id: 'a', createdAt: new Date('2026-02-01T00:00:00Z') },
      { ...older, createdAt: new Date('2026-01-01T00:00:00Z') },
    ];
    const fixed = ['a', 'b'].map((listId) => ({ listId, itemId: 'p', price: '5.00', comparePrice: null }));
    const item = { productId: 'p', variantId: null, price: '9', comparePrice: null };
    const [resolved] = resolvePrices([item], lists, fixed, { currency: 'EUR', storeCurrency: 'USD', customerTags: null, at: AT });
    expect(resolved).toEqual({
      productId: 'p',
      variantId: null,
      currency: 'EUR',
      price: '5.00',
      comparePrice: null,
      priceListId: 'b',
      basis: 'fixed',
    });
  });
});
