/**
 * The one rule for URLs the service stores and hands back to others (product images and size charts,
 * collection images, webhook targets): an absolute http(s) URL, as a URL parser reads it, with no
 * whitespace or control character. WHATWG parsers silently drop tabs and line breaks, so a URL holding
 * `\r\nSet-Cookie: …` would parse; it is refused here before it is stored and echoed into someone's page or header.
 */

export const MAX_URL_LENGTH = 2048;

// C0 controls, space, DEL, C1 controls, and any Unicode whitespace (NBSP, U+2028, …).
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what this rule refuses
const UNSAFE_CHARACTER = /[\u0000-\u0020\u007F-\u009F\s]/u;

export function looksLikeWebUrl(value: string): boolean {
  return /^https?:/i.test(value);
}

/** Why `value` is not a storable http(s) URL, or null when it is one. */
export function webUrlProblem(value: string): string | null {
  if (value.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`;
  if (UNSAFE_CHARACTER.test(value)) return 'must not contain whitespace or control characters';
  if (!/^https?:\/\//i.test(value) || !URL.canParse(value)) return 'must be an absolute http(s) URL';
  const url = new URL(value);
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') return 'must be an absolute http(s) URL';
  return null;
}
