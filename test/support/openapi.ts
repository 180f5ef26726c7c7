/**
 * The served OpenAPI document as tests read it: every `$ref` (schemas, responses, headers) replaced by
 * what it names, and each path written in full (the server's `/api/v1` prefixed, as requests are sent),
 * so a test can look up `paths['/api/v1/products'].post.responses['422'].description`.
 */
type Node = Record<string, unknown>;

function inline(node: unknown, document: Node, depth = 0): unknown {
  if (depth > 50) throw new Error('OpenAPI: $ref cycle');
  if (Array.isArray(node)) return node.map((item) => inline(item, document, depth + 1));
  if (!node || typeof node !== 'object') return node;
  const { $ref, ...rest } = node as Node;
  if (typeof $ref === 'string') {
    const target = $ref
      .slice(2)
      .split('/')
      .reduce<unknown>((at, key) => (at as Node)[key], document);
    return inline({ ...(target as Node), ...rest }, document, depth + 1);
  }
  return Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, inline(value, document, depth + 1)]));
}

// biome-ignore lint/suspicious/noExplicitAny: documents are asserted field by field in tests
export function inlineDocument(document: any): any {
  const base = (document.servers?.[0]?.url ?? '').replace(/\/$/, '');
  const paths = Object.fromEntries(
    Object.entries(document.paths as Record<string, Record<string, Node>>).map(([path, item]) => {
      const own = Object.values(item).some((operation) => Array.isArray(operation.servers));
      return [own ? path : `${base}${path}`, inline(item, document)];
    }),
  );
  return { ...document, paths };
}
