import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestContext } from '../../test/helpers.js';
import { ERROR_CODES } from '../errors.js';
import { COMPONENT_EXAMPLES } from './openapi-examples.js';

// biome-ignore lint/suspicious/noExplicitAny: the document is asserted field by field
type Any = any;
const addFormats = ajvFormats as unknown as typeof ajvFormats.default;

/** The GETs marked `config.reads: 'primary'`: a client is promised they never read a replica (docs/scaling.md §4). */
const PRIMARY_READS = new Set([
  '/events',
  '/jobs',
  '/jobs/{id}',
  '/jobs/{id}/errors',
  '/jobs/{id}/failed-rows',
  '/webhooks/{id}/deliveries',
  '/webhooks/{id}/deliveries/{deliveryId}',
]);

let t: TestContext;
let doc: Any;
let operations: { method: string; path: string; operation: Any }[];
beforeAll(async () => {
  t = await setupTestApp();
  doc = (await t.call(null, 'GET', '/api/v1/openapi.json')).body;
  operations = Object.entries(doc.paths as Record<string, Record<string, Any>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
  );
});
afterAll(() => t.close());

/** Validates against a component of the served document, its `$ref`s resolved within it. */
function validatorOf(name: string) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: 'https://storefront.test/openapi.json', components: doc.components });
  return ajv.compile({ $ref: `https://storefront.test/openapi.json#/components/schemas/${name}` });
}

const resolve = (response: Any) => (response?.$ref ? doc.components.responses[response.$ref.split('/').pop()] : response);
const resolveParameter = (parameter: Any) => (parameter?.$ref ? doc.components.parameters[parameter.$ref.split('/').pop()] : parameter);

describe('the OpenAPI document', () => {
  it('gives every operation a unique operationId', () => {
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(ids.filter((id) => !/^[a-z][A-Za-z]+$/.test(id ?? ''))).toEqual([]);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
    const byRoute = Object.fromEntries(operations.map(({ method, path, operation }) => [`${method} ${path}`, operation.operationId]));
    expect(byRoute).toMatchObject({
      'GET /products': 'listProducts',
      'POST /products': 'createProduct',
      'GET /products/{id}': 'getProduct',
      'PATCH /products/{id}': 'updateProduct',
      'DELETE /products/{id}': 'deleteProduct',
      'GET /products/{id}/variants': 'listProductVariants',
      'GET /customers/{customerId}/addresses': 'listCustomerAddresses',
      'POST /webhooks/{id}/deliveries/{deliveryId}/retry': 'retryWebhookDelivery',
      'POST /auth': 'createAccessToken',
    });
  });

  it('says who may call each operation, groups it under a described tag', () => {
    const tags = new Map((doc.tags as { name: string; description: string }[]).map((tag) => [tag.name, tag.description]));
    for (const { method, path, operation } of operations) {
      expect(operation.description, `${method} ${path}`).toMatch(
        /Scope `\w+:(read|write)`|Scope: [^`]*`\w+:(read|write)`|Access tokens only|No credentials needed/,
      );
      expect(operation.description, `${method} ${path}: a scope function's source`).not.toContain('=>');
      expect(operation.tags, `${method} ${path}`).toHaveLength(1);
      expect(tags.get(operation.tags[0]), `${method} ${path}: tag ${operation.tags[0]}`).toBeTruthy();
    }
    expect(doc.paths['/products'].post.description).toContain('`products:write`');
    expect(doc.paths['/api-keys'].get.description).toContain('Access tokens only');
  });

  it('documents every error status with the Error schema, a meaning and its headers', () => {
    for (const { method, path, operation } of operations) {
      const name = `${method} ${path}`;
      expect(
        Object.keys(operation.responses).filter((status) => !/^\d{3}$/.test(status)),
        name,
      ).toEqual([]);
      for (const [status, response] of Object.entries(operation.responses).map(([s, r]) => [s, resolve(r)] as const)) {
        expect(response.description, `${name} ${status}`).not.toMatch(/^Default Response$|^$/);
        if (Number(status) >= 400)
          expect(response.content['application/json'].schema, `${name} ${status}`).toEqual({ $ref: '#/components/schemas/Error' });
      }
      if (path === '/media/{file}' || path === '/auth') continue;
      expect(Object.keys(operation.responses), name).toEqual(expect.arrayContaining(['400', '401', '403', '429', '500', '503']));
      expect(Object.keys(resolve(operation.responses['401']).headers), name).toContain('WWW-Authenticate');
      expect(Object.keys(resolve(operation.responses['429']).headers), name).toContain('Retry-After');
      expect(
        Object.keys(resolve(operation.responses['200'] ?? operation.responses['201'] ?? operation.responses['202']).headers),
        name,
      ).toEqual(expect.arrayContaining(['X-Request-Id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']));
    }
    expect(Object.keys(doc.paths['/products/{id}'].patch.responses)).toEqual(
      expect.arrayContaining(['404', '409', '412', '413', '415', '422']),
    );
    expect(doc.components.schemas.Error.properties.error.properties.code.enum).toEqual([...ERROR_CODES]);
  });

  it('shows error examples that say success: false and use a code of the list', () => {
    const examples = operations.flatMap(({ operation }) =>
      Object.entries(operation.responses)
        .filter(([status]) => Number(status) >= 400)
        .map(([, response]) => resolve(response).content['application/json'].example),
    );
    const valid = validatorOf('Error');
    for (const example of examples) {
      expect(example.success).toBe(false);
      expect(valid(example), JSON.stringify(valid.errors)).toBe(true);
    }
  });

  it('names the resources and shared shapes as components, referenced rather than repeated', () => {
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining([
        ...['Product', 'Variant', 'ProductOption', 'Collection', 'Attribute', 'AttributeValue', 'AttributeSet', 'Customer', 'Address'],
        ...['Order', 'CartItem', 'Pagination', 'Error', 'ErrorDetail', 'Event', 'Webhook', 'WebhookDelivery', 'ApiKey'],
        ...['ProductCreate', 'ProductUpdate', 'OrderCreate', 'CustomerCreate', 'ProductList', 'ProductResponse'],
      ]),
    );
    expect(Object.keys(doc.components.schemas).filter((name) => /^def-/.test(name))).toEqual([]);
    expect(doc.paths['/products/{id}'].get.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ProductResponse',
    });
    expect(doc.components.schemas.ProductResponse.properties.data).toEqual({ $ref: '#/components/schemas/Product' });
    expect(doc.paths['/products'].post.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ProductCreate',
    });
  });

  it('leaves list parameters with defaults optional, closes request bodies and documents Prefer', () => {
    const list = doc.paths['/products'].get.parameters;
    for (const name of ['page', 'limit', 'sort', 'cursor', 'updatedSince']) {
      const parameter = list.find((p: Any) => p.name === name);
      expect(parameter.required, name).toBe(false);
      // page has no schema default (a page sent with a cursor must be seen to be refused): it says it in words
      if (name === 'page') expect(parameter.schema.description ?? parameter.description).toContain('default 1');
      else if (name === 'limit' || name === 'sort') expect(parameter.schema.default, name).toBeDefined();
    }
    // request bodies are closed at every depth (unknown names are a 400); output shapes stay open
    const create = doc.components.schemas.OrderCreate;
    expect(create.additionalProperties).toBe(false);
    expect(doc.components.schemas.CartItemInput.additionalProperties).toBe(false);
    expect(doc.components.schemas.CartItem.additionalProperties).toBeUndefined();
    expect(doc.components.schemas.Order.additionalProperties).toBeUndefined();
    expect(JSON.stringify(doc.components.schemas.Product)).not.toContain('"additionalProperties":false');
    // every API operation takes Prefer and names the read-only properties its body may carry back
    for (const { method, path, operation } of operations.filter(({ operation }) => !operation.servers)) {
      expect(
        operation.parameters?.map((p: Any) => p.name),
        `${method} ${path}`,
      ).toContain('prefer');
      expect(operation.description, `${method} ${path}`).toContain('Prefer: handling=lenient');
    }
    const patch = doc.paths['/products/{id}'].patch;
    expect(patch.description).toMatch(/read-only properties [^\n]*`createdAt`[^\n]*`id`/);
    expect(patch.responses['200'].headers['Preference-Applied']).toBeDefined();
    expect(doc.paths['/imports'].post.description).not.toContain('read-only');
  });

  it('declares Storefront-Consistency on every 2xx of a write or a primary read, and as the request header of every other GET', () => {
    const parameter = { $ref: '#/components/parameters/Storefront-Consistency' };
    expect(doc.components.parameters['Storefront-Consistency']).toMatchObject({
      in: 'header',
      name: 'storefront-consistency',
      required: false,
    });
    expect(doc.components.parameters['Storefront-Consistency'].description).toContain('400 VALIDATION_ERROR');
    expect(doc.components.headers['Storefront-Consistency'].description).toContain('STOREFRONT_REPLICA_URLS');
    const takesToken = (operation: Any) => (operation.parameters ?? []).some((p: Any) => p.$ref === parameter.$ref);
    const answersToken = (response: Any) =>
      resolve(response).headers?.['Storefront-Consistency']?.$ref === '#/components/headers/Storefront-Consistency';
    const missing: string[] = [];
    for (const { method, path, operation } of operations.filter(({ operation }) => !operation.servers)) {
      const name = `${method} ${path}`;
      const successes = Object.entries(operation.responses).filter(([status]) => /^2/.test(status));
      const answers = successes.length > 0 && successes.every(([, response]) => answersToken(response));
      if (method === 'GET' && !PRIMARY_READS.has(path)) {
        // every GET of the API is routed as a read, but those that promise to read the primary
        if (!takesToken(operation)) missing.push(`${name}: the request header`);
        if (!operation.responses['400']) missing.push(`${name}: 400 for a malformed token`);
        if (successes.some(([, response]) => answersToken(response))) missing.push(`${name}: a routed read answers no token`);
      } else if (path !== '/auth') {
        // every write goes through the write door, which answers the token; a read of the primary answers its position
        if (takesToken(operation)) missing.push(`${name}: takes no token`);
        if (!answers) missing.push(`${name}: the response header`);
      } else if (answers || takesToken(operation)) missing.push(`${name}: signing in is neither`);
    }
    expect(missing).toEqual([]);
    expect(takesToken(doc.paths['/products/{id}'].get)).toBe(true);
    expect(answersToken(doc.paths['/imports'].post.responses['202'])).toBe(true);
    expect(answersToken(doc.paths['/events'].get.responses['200'])).toBe(true);
  });

  it('serves paths relative to the /api/v1 server; media from the root, as files', () => {
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/api/v1' })]);
    expect(Object.keys(doc.paths).filter((path) => path.startsWith('/api/'))).toEqual([]);
    const media = doc.paths['/media/{file}'].get;
    expect(media.servers).toEqual([expect.objectContaining({ url: '/' })]);
    expect(Object.keys(media.responses['200'].content)).toEqual(['image/*', 'application/pdf']);
    expect(media.security).toEqual([]);
    expect(doc.info).toMatchObject({ title: 'Storefront', license: { name: 'ISC' } });
  });

  it('describes every property of every component (what it is, unit, default, limits), directly or by its component', () => {
    const schemas = doc.components.schemas as Record<string, Any>;
    const described = (property: Any): boolean =>
      typeof property?.description === 'string' && property.description.trim() !== ''
        ? true
        : property?.$ref
          ? described(schemas[property.$ref.split('/').pop()])
          : Array.isArray(property?.anyOf) && property.anyOf.some(described);
    const missing: string[] = [];
    let count = 0;
    const walk = (schema: Any, path: string) => {
      if (!schema || typeof schema !== 'object') return;
      for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, Any>)) {
        count++;
        if (!described(property)) missing.push(`${path}.${name}`);
        walk(property, `${path}.${name}`);
      }
      for (const key of ['items', 'additionalProperties']) walk(schema[key], `${path}[]`);
      for (const key of ['anyOf', 'oneOf', 'allOf']) for (const part of schema[key] ?? []) walk(part, path);
    };
    for (const [name, schema] of Object.entries(schemas)) walk(schema, name);
    expect(count).toBeGreaterThan(400);
    expect(missing).toEqual([]);
    expect(schemas.Product.properties.badge.description).toMatch(/label/);
  });

  it('describes every parameter of every operation (path, query, header), in its own words or its schema', () => {
    const missing: string[] = [];
    let count = 0;
    for (const { method, path, operation } of operations) {
      for (const parameter of ((operation.parameters ?? []) as Any[]).map(resolveParameter)) {
        count++;
        const words = parameter.description ?? parameter.schema?.description;
        if (typeof words !== 'string' || words.trim() === '') missing.push(`${method} ${path} ${parameter.in}:${parameter.name}`);
      }
    }
    expect(count).toBeGreaterThan(250);
    expect(missing).toEqual([]);
  });

  it('has examples that are valid instances of their components', () => {
    for (const [name, example] of Object.entries(COMPONENT_EXAMPLES)) {
      expect(doc.components.schemas[name]?.examples, name).toEqual([example]);
      const valid = validatorOf(name);
      expect(valid(example), `${name}: ${JSON.stringify(valid.errors)}`).toBe(true);
    }
  });

  it('describes what the API answers: a created product and a 404 match their components', async () => {
    const store = await t.newStore();
    const created = await t.call(store, 'POST', '/products', COMPONENT_EXAMPLES.ProductCreate);
    expect(created.status).toBe(201);
    const product = validatorOf('ProductResponse');
    expect(product(created.body), JSON.stringify(product.errors)).toBe(true);
    const list = validatorOf('ProductList');
    const page = await t.call(store, 'GET', '/products');
    expect(list(page.body), JSON.stringify(list.errors)).toBe(true);
    const missing = await t.call(store, 'GET', '/products/0123456789abcdef01234567');
    const error = validatorOf('Error');
    expect(missing.status).toBe(404);
    expect(error(missing.body), JSON.stringify(error.errors)).toBe(true);
  });
});
