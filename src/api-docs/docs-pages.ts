import { Marked, type Tokens } from 'marked';

/**
 * The project's docs/*.md as HTML pages under /docs/pages/: the guide links them, and a reader gets a page,
 * not raw markdown. Rendered once at load with `marked`; headings get GitHub-style ids so `other.md#part`
 * links land where they point. Nothing on the page loads from another host (inline style, no script).
 */

/** GitHub's anchor of a heading: lowercase, punctuation dropped, spaces to dashes. */
export function headingId(text: string): string {
  return text
    .toLowerCase()
    .trim()
    .replace(/<[^>]*>/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

function renderer(): Marked {
  const marked = new Marked({ gfm: true });
  marked.use({
    renderer: {
      heading(this: { parser: { parseInline(tokens: Tokens.Heading['tokens']): string } }, { tokens, depth, text }: Tokens.Heading) {
        return `<h${depth} id="${headingId(text)}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
      },
    },
  });
  return marked;
}

const STYLE = `body{font:16px/1.6 system-ui,sans-serif;max-width:50rem;margin:2rem auto;padding:0 1rem;color:#1f2937}
a{color:#1d4ed8}code,pre{font-family:ui-monospace,monospace;font-size:.9em}pre{background:#f3f4f6;padding:1rem;overflow:auto}
code{background:#f3f4f6;padding:.1em .3em}pre code{padding:0}table{border-collapse:collapse}td,th{border:1px solid #d1d5db;padding:.3em .6em}
nav{margin-bottom:1.5rem}`;

/** One doc as a standalone HTML page; its title is its first H1 (or its file name). */
export function renderDocPage(name: string, markdown: string, marked: Marked = renderer()): string {
  const title = /^# (.+)$/m.exec(markdown)?.[1] ?? name;
  const body = marked.parse(markdown, { async: false }) as string;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Storefront API</title><style>${STYLE}</style></head>
<body><nav><a href="/docs/">← Storefront API reference</a></nav>
<main>${body}</main></body></html>`;
}

/** Every doc rendered, by file name. */
export function renderDocPages(pages: Map<string, string>): Map<string, string> {
  const marked = renderer();
  return new Map([...pages].map(([name, markdown]) => [name, renderDocPage(name, markdown, marked)]));
}
