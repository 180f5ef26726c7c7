import { html } from 'ghtml';

/** Small pieces of markup the screens share. Every value goes through `html`, so it is escaped. */

export type Cell = string | number | null | undefined | { html: string };

const cell = (value: Cell) => (value !== null && typeof value === 'object' ? value.html : html`${value ?? ''}`);

/** A table with a caption (its accessible name) and header cells. */
export function table(caption: string, headers: string[], rows: Cell[][]): string {
  if (rows.length === 0) return html`<p class="muted">${caption}: none.</p>`;
  const head = headers.map((header) => html`<th scope="col">${header}</th>`).join('');
  const body = rows.map((row) => `<tr>${row.map((value) => `<td>${cell(value)}</td>`).join('')}</tr>`).join('');
  return html`<table><caption class="visually-hidden">${caption}</caption><thead><tr>!${head}</tr></thead><tbody>!${body}</tbody></table>`;
}

/** A link to a console path (always ours: the path is built by the screen, its parts escaped). */
export const link = (href: string, text: string): { html: string } => ({ html: html`<a href="${href}">${text}</a>` });

/** A URL from the data as a link only when it is http(s); otherwise plain text (no javascript: links). */
export function outsideLink(url: string): string {
  return /^https?:\/\//i.test(url) ? html`<a href="${url}" rel="noreferrer noopener">${url}</a>` : html`${url}`;
}

/** The API's answer, pretty-printed, as text. */
export function jsonBlock(title: string, apiText: string): string {
  const pretty = JSON.stringify(JSON.parse(apiText), null, 2);
  return html`<h2>${title}</h2><pre class="json" tabindex="0" aria-label="${title}">${pretty}</pre>`;
}

/** A definition list of label → value pairs. */
export function facts(pairs: [string, Cell][]): string {
  return `<dl class="facts">${pairs.map(([label, value]) => html`<dt>${label}</dt><dd>!${cell(value)}</dd>`).join('')}</dl>`;
}

export const when = (iso: string | null | undefined) => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC') : '');

/** "Next page" by the list's cursor, keeping the filters. */
export function nextPageLink(path: string, query: Record<string, string | undefined>, nextCursor: string | null | undefined): string {
  return pageLinks(path, query, { nextCursor });
}

/**
 * "Previous page" (the page's `prevCursor`, sent back as `before`) and "Next page" (its `nextCursor`, as `cursor`),
 * keeping the filters; either only when there is such a page.
 */
export function pageLinks(
  path: string,
  query: Record<string, string | undefined>,
  cursors: { nextCursor?: string | null; prevCursor?: string | null },
): string {
  const href = (name: 'cursor' | 'before', value: string) => {
    const params = new URLSearchParams();
    for (const [key, given] of Object.entries(query)) if (given && key !== 'cursor' && key !== 'before') params.set(key, given);
    params.set(name, value);
    return `${path}?${params}`;
  };
  const links = [
    cursors.prevCursor ? html`<a href="${href('before', cursors.prevCursor)}" rel="prev">Previous page</a>` : '',
    cursors.nextCursor ? html`<a href="${href('cursor', cursors.nextCursor)}" rel="next">Next page</a>` : '',
  ].filter(Boolean);
  return links.length ? html`<nav class="pager" aria-label="Pages">!${links.join(' ')}</nav>` : '';
}

/** A search box named "Search" and the list's filters, as a GET form (works without JavaScript). */
export function filterForm(path: string, fields: { name: string; label: string; value?: string; options?: string[] }[]): string {
  const inputs = fields.map((field) => {
    const id = `filter-${field.name}`;
    const control = field.options
      ? html`<select id="${id}" name="${field.name}">!${['', ...field.options]
          .map((option) => html`<option value="${option}"!${option === (field.value ?? '') ? ' selected' : ''}>${option || 'any'}</option>`)
          .join('')}</select>`
      : html`<input id="${id}" name="${field.name}" value="${field.value ?? ''}"!${field.name === 'search' ? ' type="search"' : ''}>`;
    return html`<div><label for="${id}">${field.label}</label>!${control}</div>`;
  });
  return html`<form class="filters" method="get" action="${path}" role="search">!${inputs.join('')}<button type="submit">Filter</button></form>`;
}
