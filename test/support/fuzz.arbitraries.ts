import fc from 'fast-check';

/**
 * Request generators for the OpenAPI fuzz test (src/http/fuzz.test.ts), built from the service's own
 * OpenAPI document: values that follow each schema closely enough to reach the service code, then
 * broken on purpose (wrong types, missing and extra fields, huge, unicode, NUL and lone-surrogate
 * strings, bad ids, bad query parameters, bad headers). Not a test file itself.
 */

export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  'x-alias-of'?: string;
  description?: string;
}

export interface Operation {
  method: string;
  /** the OpenAPI path, e.g. `/api/v1/products/{id}` */
  path: string;
  query: { name: string; schema: JsonSchema }[];
  pathParams: string[];
  body?: JsonSchema;
}

export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

interface OpenApiParameter {
  in: string;
  name: string;
  schema: JsonSchema;
}
interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}

export function operationsOf(doc: { paths: Record<string, Record<string, OpenApiOperation>> }): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => {
      const parameters = operation.parameters ?? [];
      return {
        method: method.toUpperCase(),
        path,
        query: parameters.filter((p) => p.in === 'query').map(({ name, schema }) => ({ name, schema })),
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        body: operation.requestBody?.content['application/json']?.schema,
      };
    }),
  );
}

const PNG_DATA_URI =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));
const hostileUnit = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'binary', maxLength: 1 }) },
  { weight: 1, arbitrary: loneSurrogate },
  { weight: 1, arbitrary: fc.constantFrom('\u0000', '\r\n', '\u202e', '\ufeff', '%', '_', '\\', "'", '"', '\u0085') },
);

/** Strings meant to break things: NUL, lone surrogates, control and bidi characters, SQL and path tricks, huge. */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: hostileUnit, maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\ud800',
    'x\udc00y',
    "'; DROP TABLE products; --",
    '../../etc/passwd',
    '%00',
    '%E0%A4%A',
    '<script>alert(1)</script>',
    'NaN',
    '-1',
    '1e309',
    '0x1F',
    'null',
    '{}',
    '[]',
    'https://cdn.example.test/a.png\r\nSet-Cookie: a=b',
    'data:image/png;base64,!!!',
    'data:text/html;base64,PHNjcmlwdD4=',
    'javascript:alert(1)',
    '𝕏𝔂𝔃',
    'e\u0301',
  ),
  fc.integer({ min: 256, max: 300_000 }).map((length) => 'ü'.repeat(length)),
);

/** Any JSON value of the wrong kind for most fields. */
export const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  nastyString,
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(-1, 0, 1.5, 1e308, -1e308, 2 ** 53, 2 ** 31, -0, true, false, null),
  fc.jsonValue({ maxDepth: 2 }),
);

/** Where plausible ids come from: `forField(name)` the ids a field or parameter of that name should hold ([] when none). */
export interface IdPool {
  all: string[];
  forField(name: string): string[];
}

const pastDate = fc.date({ min: new Date('1970-01-01'), max: new Date('2025-01-01'), noInvalidDate: true }).map((d) => d.toISOString());

/** Strings a field with this name would plausibly hold (ids, URLs, emails...), from its name. */
function hintedString(name: string, pool: IdPool): fc.Arbitrary<string> | null {
  if (/^(images?|sizeChart)$/.test(name)) return fc.constantFrom('https://cdn.example.test/a.png', PNG_DATA_URI);
  const ids = pool.forField(name);
  if (ids.length > 0) return fc.constantFrom(...ids);
  if (name === 'handle') return fc.stringMatching(/^[a-z][a-z0-9-]{0,19}$/);
  if (/[eE]mail$/.test(name)) return fc.stringMatching(/^[a-z]{1,8}@example\.test$/);
  if (name === 'currency') return fc.constantFrom('USD', 'EUR');
  if (/At$|Since$/.test(name)) return pastDate;
  return null;
}

function stringFor(schema: JsonSchema, name: string, pool: IdPool): fc.Arbitrary<string> {
  const hinted = hintedString(name, pool);
  if (hinted) return hinted;
  if (schema.format === 'date-time') return pastDate;
  if (schema.pattern === '^[0-9a-f]{24}$') return fc.constantFrom(...pool.all);
  if (schema.pattern === '^[A-Z]{3}$') return fc.constantFrom('USD', 'EUR');
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? 24, 24));
  return fc.string({ unit: 'grapheme-ascii', minLength: Math.max(minLength, 1), maxLength }).map((s) => (s.trim() ? s : `v${s}`));
}

function numberFor(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min = schema.minimum ?? 0;
  const max = Math.min(schema.maximum ?? 1_000_000, 1_000_000);
  return integer
    ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) })
    : fc.double({ min, max, noNaN: true }).map((n) => Math.round(n * 100) / 100);
}

const typesOf = (schema: JsonSchema) => (Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []);

/** A value that follows `schema` closely (enums, bounds, required properties), with plausible strings. */
export function valueFor(schema: JsonSchema, name: string, pool: IdPool, depth = 0): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return fc.oneof(...branches.map((branch) => valueFor(branch, name, pool, depth)));
  const choices = typesOf(schema).map((type): fc.Arbitrary<unknown> => {
    switch (type) {
      case 'string':
        return stringFor(schema, name, pool);
      case 'number':
      case 'integer':
        return numberFor(schema, type === 'integer');
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array':
        return fc.uniqueArray(schema.items ? valueFor(schema.items, name, pool, depth + 1) : fc.jsonValue({ maxDepth: 1 }), {
          minLength: schema.minItems ?? 0,
          maxLength: Math.max(schema.minItems ?? 0, 3),
          selector: (item) => JSON.stringify(item).toLowerCase(),
        });
      default:
        return objectFor(schema, pool, depth);
    }
  });
  return choices.length ? fc.oneof(...choices) : fc.jsonValue({ maxDepth: 2 });
}

function objectFor(schema: JsonSchema, pool: IdPool, depth: number): fc.Arbitrary<Record<string, unknown>> {
  if (depth > 4 || !schema.properties) return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 });
  // Aliases stay out of shaped bodies (a shaped body sending both names would always be a 400); mutations add them.
  const properties = Object.entries(schema.properties).filter(([, sub]) => !sub['x-alias-of'] && !sub.description?.startsWith('alias of'));
  const model = Object.fromEntries(properties.map(([key, sub]) => [key, valueFor(sub, key, pool, depth + 1)]));
  return fc.record(model, { requiredKeys: schema.required ?? [] }) as fc.Arbitrary<Record<string, unknown>>;
}

type Slot = [Record<string, unknown> | unknown[], string | number];

/** Every place inside a JSON value where a mutation can land: [parent, key] pairs. */
function slotsOf(value: unknown, slots: Slot[] = []): Slot[] {
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      slots.push([value, index]);
      slotsOf(value[index], slots);
    }
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      slots.push([value as Record<string, unknown>, key]);
      slotsOf(item, slots);
    }
  }
  return slots;
}

/** Sets an own property, even `__proto__`, so it is serialized like any other. */
function setOwn(target: object, key: string | number, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

type Mutation = { kind: 'replace' | 'delete' | 'add'; at: number; value: unknown; key: string };

function mutate(value: unknown, mutation: Mutation): unknown {
  const copy = structuredClone(value);
  const slots = slotsOf(copy);
  if (slots.length === 0) {
    if (mutation.kind !== 'add' || !copy || typeof copy !== 'object') return mutation.value;
    setOwn(copy, mutation.key, mutation.value);
    return copy;
  }
  const [parent, key] = slots[mutation.at % slots.length];
  if (mutation.kind === 'replace') setOwn(parent, key, mutation.value);
  else if (mutation.kind === 'delete' && !Array.isArray(parent)) delete parent[key as string];
  else if (!Array.isArray(parent)) setOwn(parent, mutation.key, mutation.value);
  return copy;
}

const mutationArb: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom('replace', 'replace', 'delete', 'add'),
  at: fc.nat(),
  value: wrongValue,
  key: fc.oneof(
    fc.string({ maxLength: 10 }),
    nastyString.map((s) => s.slice(0, 40)),
    fc.constantFrom('__proto__', 'constructor', 'image'),
  ),
});

/** A JSON body: schema-shaped, or (broken) shaped then broken in one to three places, or not JSON at all. */
export function bodyFor(schema: JsonSchema, pool: IdPool, broken: boolean): fc.Arbitrary<string> {
  const shaped = valueFor(schema, 'body', pool);
  if (!broken) return shaped.map((value) => JSON.stringify(value));
  const mutated = fc
    .tuple(shaped, fc.array(mutationArb, { minLength: 1, maxLength: 3 }))
    .map(([value, mutations]) => mutations.reduce(mutate, value));
  return fc.oneof(
    { weight: 8, arbitrary: mutated.map((value) => JSON.stringify(value) ?? 'null') },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '',
        '{',
        '{"a":',
        'nul',
        '[]',
        '"x"',
        '1e999999',
        `${'['.repeat(5000)}${']'.repeat(5000)}`,
        '{"__proto__":{"x":1}}',
      ),
    },
  );
}

/** Percent-encodes any string, a lone surrogate as the (invalid) UTF-8 bytes of its code unit. */
export function encodeLoose(value: string): string {
  return value
    .split(/([\uD800-\uDFFF])/u)
    .map((piece) => {
      if (piece.length === 1 && /[\uD800-\uDFFF]/u.test(piece)) {
        const code = piece.charCodeAt(0);
        return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
          .map((b) => `%${b.toString(16).toUpperCase()}`)
          .join('');
      }
      return encodeURIComponent(piece);
    })
    .join('');
}

/** A path segment: the right record's id, or (broken) another id, a near-id, or junk (sometimes not even decodable). */
export function pathSegmentFor(rightIds: string[], pool: IdPool, broken: boolean): fc.Arbitrary<string> {
  if (!broken) return fc.constantFrom(...rightIds);
  return fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom(...pool.all) },
    { weight: 1, arbitrary: fc.stringMatching(/^[0-9a-f]{24}$/) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        rightIds[0].toUpperCase(),
        `${rightIds[0]}0`,
        rightIds[0].slice(1),
        'x'.repeat(201),
        '%E0%A4%A',
        '%',
        '..',
      ),
    },
    { weight: 3, arbitrary: nastyString.map((s) => encodeLoose(s.slice(0, 300)) || 'x') },
  );
}

type QueryParameter = Operation['query'][number];

function queryText(pairs: (readonly [string, string])[], raw = ''): string {
  const text = pairs.map(([k, v]) => `${encodeLoose(k)}=${encodeLoose(v)}`).join('&') + raw;
  return text ? `?${text}` : '';
}

const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** A query string: declared parameters maybe present with plausible values, or (broken) also wrong values and unknown names. */
export function queryFor(operation: Operation, pool: IdPool, broken: boolean): fc.Arbitrary<string> {
  const one = ({ name, schema }: QueryParameter) => {
    const value = broken ? fc.oneof(valueFor(schema, name, pool), wrongValue) : valueFor(schema, name, pool);
    return fc.option(value, { freq: 2, nil: undefined }).map((v) => (v === undefined ? [] : [[name, asText(v)] as const]));
  };
  const declared = fc.tuple(...operation.query.map(one)).map((pairs) => pairs.flat());
  if (!broken) return declared.map((pairs) => queryText(pairs));
  const unknown = fc.array(
    fc.tuple(
      fc.string({ maxLength: 10 }),
      nastyString.map((s) => s.slice(0, 200)),
    ),
    { maxLength: 2 },
  );
  return fc
    .tuple(declared, unknown, fc.constantFrom('', '', '&%', '&a=%zz', '&page=1&page=2', '&limit=1&limit=x'))
    .map(([pairs, extra, raw]) => queryText([...pairs, ...extra], raw));
}

/** Headers: a valid credential and JSON (strict or lenient handling); or (broken) no or a bad credential, odd content types. */
export function headersFor(token: string, apiKey: string, broken: boolean): fc.Arbitrary<Record<string, string>> {
  const good = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  if (!broken) return fc.constantFrom(good, { ...good, prefer: 'handling=strict' }, { ...good, prefer: 'handling=lenient' });
  return fc
    .record({
      authorization: fc.constantFrom(
        undefined,
        '',
        'Bearer',
        'Bearer sfk_short',
        `Bearer ${apiKey}`,
        `Bearer ${apiKey}`,
        `Basic ${token}`,
        `Bearer ${token}x`,
      ),
      prefer: fc.constantFrom(undefined, 'handling=strict', 'handling=lenient, return=minimal', 'handling="strict"; x=y'),
      contentType: fc.constantFrom(
        undefined,
        'application/json; charset=utf-8',
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/jsonx',
      ),
      requestId: fc.option(fc.string({ maxLength: 40 }), { nil: undefined }),
    })
    .map(({ authorization, prefer, contentType, requestId }) => {
      const headers: Record<string, string> = {};
      if (authorization !== undefined) headers.authorization = authorization;
      if (prefer) headers.prefer = prefer;
      if (contentType) headers['content-type'] = contentType;
      if (requestId !== undefined) headers['x-request-id'] = requestId.replace(/[^\x20-\x7e]/g, '');
      return headers;
    });
}
