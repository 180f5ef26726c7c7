/**
 * Deterministic seed values: product i, customer i and order i are pure functions of i, so any
 * scale is generated in chunks without holding the data set in memory, and two runs at one scale
 * seed the same catalog (only ids and timestamps differ).
 */

export const PRODUCT_OPTIONS = [
  { name: 'Size', values: ['S', 'M', 'L'] },
  { name: 'Color', values: ['Red', 'Green', 'Blue'] },
];

const ADJECTIVES = ['Classic', 'Modern', 'Vintage', 'Organic', 'Premium', 'Everyday', 'Rugged', 'Slim', 'Cozy', 'Bold', 'Urban', 'Coastal'];
const NOUNS = ['Shirt', 'Hoodie', 'Mug', 'Backpack', 'Sneaker', 'Jacket', 'Lamp', 'Notebook', 'Bottle', 'Scarf', 'Cap', 'Blanket', 'Tote'];
const FIRST_NAMES = ['Ada', 'Grace', 'Alan', 'Linus', 'Margaret', 'Dennis', 'Barbara', 'Ken', 'Edsger', 'Frances', 'Niklaus', 'Radia'];
const LAST_NAMES = ['Lovelace', 'Hopper', 'Turing', 'Torvalds', 'Hamilton', 'Ritchie', 'Liskov', 'Thompson', 'Dijkstra', 'Allen', 'Wirth'];
export const ORDER_STATUSES = [
  'fulfilled',
  'fulfilled',
  'fulfilled',
  'fulfilled',
  'fulfilled',
  'fulfilled',
  'pending',
  'pending',
  'pending',
  'cancelled',
];

/** The search scenario's term is SEARCH_WORDS[0]: exactly one product in SEARCH_WORDS.length carries it. */
export const SEARCH_GROUPS = 100;

/** Pronounceable six-letter tokens: equal length, so none is a substring of another. */
function searchWords(): string[] {
  const first = 'bdfgklmnpr';
  const third = 'stvzbdfgkl';
  const vowels = 'aeiou';
  // Letters 1 and 3 encode the two decimal digits of k, so the words are distinct by construction.
  const words = Array.from({ length: SEARCH_GROUPS }, (_, k) => {
    const [a, b] = [k % 10, Math.floor(k / 10)];
    return `${first[a].toUpperCase()}${vowels[(a + b) % 5]}${third[b]}${first[(a * 3 + b) % 10]}${vowels[(a * 7 + b * 3) % 5]}${third[(b * 3 + a) % 10]}`;
  });
  const others = [...ADJECTIVES, ...NOUNS, ...PRODUCT_OPTIONS.flatMap((o) => o.values)].map((w) => w.toLowerCase());
  const lower = words.map((w) => w.toLowerCase());
  const clash = lower.find((w, i) => lower.indexOf(w) !== i || others.some((o) => o.includes(w)));
  // Deterministic, so this either always holds or fails on the first run after an edit to the lists.
  if (clash) throw new Error(`search word ${clash} is not unique among the title words`);
  return words;
}

export const SEARCH_WORDS = searchWords();
export const SEARCH_TERM = SEARCH_WORDS[0].toLowerCase();
/** The wide search term: ADJECTIVES[0], the title (and so handle and SKUs) of one product in ADJECTIVES.length (8.3%). */
export const WIDE_SEARCH_TERM = ADJECTIVES[0].toLowerCase();

/** A cheap deterministic hash of i (and a salt) to [0, 1). */
export function unit(i: number, salt = 0): number {
  let x = (i + 1) * 2654435761 + salt * 40503;
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b);
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b);
  return ((x ^ (x >>> 16)) >>> 0) / 4294967296;
}

const money = (value: number) => Math.round(value * 100) / 100;

export interface ProductFixture {
  title: string;
  description: string;
  status: 'active' | 'disabled';
  price: number;
  comparePrice: number | null;
  totalStock: number;
  images: string[];
  metaTitle: string;
  metaDescription: string;
}

export function productFixture(i: number): ProductFixture {
  const noun = NOUNS[i % NOUNS.length];
  const title = `${ADJECTIVES[Math.floor(i / 7) % ADJECTIVES.length]} ${SEARCH_WORDS[i % SEARCH_GROUPS]} ${noun} ${i + 1}`;
  const price = money(5 + unit(i, 1) * 495);
  const description = `${title}: a ${noun.toLowerCase()} made to last, sold in three sizes and three colors. Care instructions and materials are on the label.`;
  return {
    title,
    description,
    status: unit(i, 2) < 0.95 ? 'active' : 'disabled',
    price,
    comparePrice: unit(i, 3) < 0.5 ? money(price * 1.25) : null,
    totalStock: Math.floor(unit(i, 4) * 1000),
    images: [`https://cdn.example.com/products/${i + 1}/front.jpg`, `https://cdn.example.com/products/${i + 1}/back.jpg`],
    metaTitle: title,
    metaDescription: description.slice(0, 120),
  };
}

export interface CustomerFixture {
  userName: string;
  email: string;
  firstName: string;
  lastName: string;
  phoneNumber: string;
}

export function customerFixture(i: number): CustomerFixture {
  const firstName = FIRST_NAMES[i % FIRST_NAMES.length];
  const lastName = LAST_NAMES[Math.floor(i / FIRST_NAMES.length) % LAST_NAMES.length];
  return {
    userName: `customer${i + 1}`,
    email: `customer${i + 1}@example.test`,
    firstName,
    lastName,
    phoneNumber: `+1555${String(i % 10_000_000).padStart(7, '0')}`,
  };
}

const ORDER_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** The service's `ORD-` + 10 characters format, unique per i (generated numbers are random; these must not collide). */
export function orderNumber(i: number): string {
  let n = i;
  let suffix = '';
  for (let k = 0; k < 10; k++) {
    suffix = ORDER_ALPHABET[n % ORDER_ALPHABET.length] + suffix;
    n = Math.floor(n / ORDER_ALPHABET.length);
  }
  return `ORD-${suffix}`;
}

export interface OrderShape {
  status: string;
  paymentStatus: string;
  /** indexes into the product list (3 lines) */
  productIndexes: number[];
  quantities: number[];
  /** index into the customer list, or null for a guest checkout */
  customerIndex: number | null;
}

export function orderShape(i: number, products: number, customers: number, status = ORDER_STATUSES[i % ORDER_STATUSES.length]): OrderShape {
  return {
    status,
    paymentStatus: status === 'pending' ? 'pending' : 'paid',
    productIndexes: [0, 1, 2].map((k) => Math.floor(unit(i, 10 + k) * products)),
    quantities: [0, 1, 2].map((k) => 1 + Math.floor(unit(i, 20 + k) * 3)),
    customerIndex: customers > 0 && unit(i, 30) < 0.8 ? Math.floor(unit(i, 31) * customers) : null,
  };
}

export function orderAddress(customer: CustomerFixture | null, i: number) {
  return {
    firstName: customer?.firstName ?? 'Guest',
    lastName: customer?.lastName ?? `Buyer ${i + 1}`,
    address1: `${(i % 999) + 1} Main Street`,
    address2: null,
    city: 'Springfield',
    state: 'IL',
    zip: String(60_000 + (i % 999)),
    country: 'US',
    phone: customer?.phoneNumber ?? null,
  };
}

/** Evenly spread creation times over `years` back from now: index order is creation order. */
export function createdAtOf(i: number, count: number, years: number, now: number): Date {
  const span = years * 365 * 24 * 3600 * 1000;
  return new Date(now - span + Math.floor((span * (i + 1)) / (count + 1)));
}
