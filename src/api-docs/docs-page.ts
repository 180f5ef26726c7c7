import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * What `GET /docs` shows: the service's OpenAPI document, with the user guide (docs/guide.md) as its
 * introduction, the resources grouped in the sidebar, and "try it" aimed at the server the page came from.
 * Only the page's copy changes: `GET /api/v1/openapi.json` stays the lean document SDK generators read.
 */

type Document = Record<string, unknown> & { info?: Record<string, unknown>; servers?: { url: string }[]; tags?: { name: string }[] };

/** Sidebar groups, in reading order: first a credential, then the records, then keeping another system in step. */
const TAG_GROUPS: [group: string, tags: string[]][] = [
  ['Access', ['authentication', 'auth', 'apikeys']],
  ['Catalog', ['products', 'variants', 'collections', 'attributes', 'attributesets', 'media']],
  ['Customers and orders', ['customers', 'addresses', 'orders']],
  ['Sync and bulk', ['events', 'webhooks', 'imports', 'exports', 'jobs']],
];
const OTHER_GROUP = 'More';

const normalized = (tag: string) => tag.toLowerCase().replace(/[^a-z]/g, '');

function tagsInOrder(document: Document): string[] {
  const seen = new Set<string>((document.tags ?? []).map((tag) => tag.name));
  for (const item of Object.values((document.paths ?? {}) as Record<string, Record<string, { tags?: string[] }>>))
    for (const operation of Object.values(item)) for (const tag of operation?.tags ?? []) seen.add(tag);
  return [...seen];
}

/** `x-tagGroups` over the document's own tags; a tag no group names lands in "More", so nothing is hidden. */
export function tagGroups(document: Document): { name: string; tags: string[] }[] {
  const tags = tagsInOrder(document);
  const groupOf = (tag: string) => TAG_GROUPS.find(([, names]) => names.includes(normalized(tag)))?.[0] ?? OTHER_GROUP;
  const groups = [...TAG_GROUPS.map(([name]) => name), OTHER_GROUP].map((name) => ({
    name,
    tags: tags.filter((tag) => groupOf(tag) === name),
  }));
  return groups.filter((group) => group.tags.length > 0);
}

/**
 * The document's server as a path on the page's own origin: the page and "try it" then talk to the same
 * host whatever `STOREFRONT_PUBLIC_URL` says (a 0.0.0.0 listen address, a proxy in front), and the API
 * needs no CORS.
 */
function sameOriginServers(document: Document): { url: string; description: string }[] {
  const declared = document.servers?.[0]?.url;
  const path = declared ? new URL(declared, 'http://localhost').pathname.replace(/\/+$/, '') : '';
  return [{ url: path || '/', description: 'this server' }];
}

export function pageDocument(document: Document, guide: string): Document {
  const intro = [document.info?.description, guide].filter((part) => typeof part === 'string' && part.trim() !== '').join('\n\n');
  return {
    ...document,
    info: { ...document.info, description: intro },
    servers: sameOriginServers(document),
    'x-tagGroups': tagGroups(document),
  };
}

/** The project root: the nearest folder up from this module (src/http or dist/src/http) that has docs/guide.md. */
function docsFolder(): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 5; depth++, folder = dirname(folder)) {
    const candidate = join(folder, 'docs');
    try {
      if (readdirSync(candidate).includes('guide.md')) return candidate;
    } catch {
      // not here; one level up
    }
  }
  throw new Error('docs/guide.md not found above src/http');
}

/** where the docs page serves the project's other docs/*.md, as HTML pages (docs-pages.ts) */
export const PAGES_PREFIX = '/docs/pages/';

export interface DocsFiles {
  guide: string;
  /** the project's docs/*.md by file name, for the guide's links */
  pages: Map<string, string>;
}

export function readDocsFiles(): DocsFiles {
  const folder = docsFolder();
  const names = readdirSync(folder).filter((name) => /^[a-z0-9-]+\.md$/.test(name));
  const pages = new Map(names.map((name) => [name, readFileSync(join(folder, name), 'utf8')]));
  return { guide: linkPagesFromDocs(pages.get('guide.md') ?? ''), pages };
}

/**
 * The guide links its neighbours as `other.md` or `other.md#part`; on the page those links must name where
 * the page serves them (`/docs/pages/other.md#part`: pages whose headings carry ids). The H1 goes: the page
 * has its title.
 */
function linkPagesFromDocs(guide: string): string {
  return guide
    .replace(/^# .*\n+/, '')
    .replace(/\]\(([a-z0-9-]+\.md)(#[^)]*)?\)/g, (_, name: string, part = '') => `](${PAGES_PREFIX}${name}${part})`);
}

const FAVICON =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Crect width='32' height='32' rx='6' fill='%231d4ed8'/%3E%3Cpath d='M9 12h14l-1.5 12h-11z' fill='white'/%3E%3Cpath d='M12.5 12a3.5 3.5 0 0 1 7 0' stroke='white' stroke-width='2' fill='none'/%3E%3C/svg%3E";

/**
 * Scalar's configuration. Offline: its bundle is served by the plugin (js/scalar.js), and everything that
 * would call out is off: fonts from fonts.scalar.com (the system's fonts instead), telemetry, the hosted
 * client, the AI agent and MCP generator (api.scalar.com, dashboard.scalar.com), the developer tools
 * (registry uploads). No proxy is set: "try it" requests go straight to this server, which the page came from.
 */
export const SCALAR_CONFIGURATION = {
  pageTitle: 'Storefront API',
  favicon: FAVICON,
  metaData: { title: 'Storefront API', description: 'The Storefront commerce API: guide and reference' },
  withDefaultFonts: false,
  telemetry: false,
  hideClientButton: true,
  showDeveloperTools: 'never',
  agent: { disabled: true },
  mcp: { disabled: true },
  documentDownloadType: 'json',
  showOperationId: true,
  defaultHttpClient: { targetKey: 'shell', clientKey: 'curl' },
  authentication: { preferredSecurityScheme: 'bearer' },
} as const;
