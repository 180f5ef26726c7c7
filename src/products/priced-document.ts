/**
 * A stored product document (canonical JSON: every object's keys sorted, src/shared/canonical-json.ts) with
 * `resolvedPrice` added to the product itself or to its variants, as canonical JSON again, without parsing
 * the document and writing it anew (issue 40: a priced GET did both, for its body and its ETag). One pass over
 * the text finds where the key goes in each object that takes it, before the first of its keys that sorts
 * after `resolvedPrice` (else at its end), and copies the rest as it is. A variant is known by its `id`, which
 * sorts before `resolvedPrice`, so it is read before the place is reached.
 */

const KEY = 'resolvedPrice';
const [QUOTE, BACKSLASH, COLON, COMMA] = [34, 92, 58, 44];
const [OPEN_OBJECT, CLOSE_OBJECT, OPEN_ARRAY, CLOSE_ARRAY] = [123, 125, 91, 93];
/** where the objects sit: the product at depth 1, its `variants` array at 2, each variant at 3 */
const [PRODUCT, VARIANTS, VARIANT] = [1, 2, 3];

/**
 * `body` with `"resolvedPrice":<text>` in the product (`own`, when given) and in each variant for which
 * `ofVariant(its id)` answers a text. The texts are canonical JSON themselves.
 */
export function withResolvedPrices(body: string, own: string | undefined, ofVariant: (id: string) => string | undefined): string {
  const out: string[] = [];
  let copied = 0;
  let depth = 0;
  // the depth of the object that takes the key now (0: none), and what it takes
  let target = 0;
  let text: string | undefined;
  // 0: the product's `variants` not met yet; VARIANTS: inside it; -1: past it
  let variants = 0;
  let justOpened = false;
  const insert = (at: number, piece: string) => {
    out.push(body.slice(copied, at), piece);
    copied = at;
    target = 0;
  };
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(body, i);
      if (body.charCodeAt(end + 1) === COLON) {
        const key = depth === target || (depth === PRODUCT && variants === 0) ? body.slice(i + 1, end) : '';
        if (depth === target && text === undefined && key === 'id' && body.charCodeAt(end + 2) === QUOTE) {
          text = ofVariant(body.slice(end + 3, stringEnd(body, end + 2)));
          if (text === undefined) target = 0;
        } else if (depth === target && text !== undefined && key > KEY) insert(i, `"${KEY}":${text},`);
        else if (depth === PRODUCT && key === 'variants') variants = VARIANTS;
      }
      i = end;
      justOpened = false;
    } else if (c === OPEN_OBJECT) {
      depth++;
      justOpened = true;
      if (depth === PRODUCT && own !== undefined) [target, text] = [PRODUCT, own];
      else if (depth === VARIANT && variants === VARIANTS) [target, text] = [VARIANT, undefined];
    } else if (c === CLOSE_OBJECT) {
      if (depth === target && text !== undefined) insert(i, justOpened ? `"${KEY}":${text}` : `,"${KEY}":${text}`);
      else if (depth === target) target = 0;
      depth--;
      justOpened = false;
    } else if (c === OPEN_ARRAY) {
      depth++;
      justOpened = false;
    } else if (c === CLOSE_ARRAY) {
      if (depth === VARIANTS && variants === VARIANTS) variants = -1;
      depth--;
    } else if (c === COMMA) justOpened = false;
  }
  out.push(body.slice(copied));
  return out.join('');
}

/** The index of the quote that closes the string opening at `start`. */
function stringEnd(body: string, start: number): number {
  let i = start + 1;
  for (;;) {
    const c = body.charCodeAt(i);
    if (c === QUOTE) return i;
    i += c === BACKSLASH ? 2 : 1;
  }
}
