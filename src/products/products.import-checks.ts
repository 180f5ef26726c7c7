import { createHash } from 'node:crypto';
import { invalidField } from '../errors.js';
import { compileBodyCheck, type Handling, suppliedSlug } from '../shared/index.js';
import { CreateProductBody, type CreateProductInput, Product } from './products.schema.js';
import type { ImportMatch } from './products.sql.js';

/** What both ways of applying a product import line share: the line's checks, its key, its digest. */

// A product as GET returns it is a valid line: its read-only names (ids, timestamps, a variant's id) are ignored.
const checkLine = compileBodyCheck(CreateProductBody, Product);

/** The digest an import write records with the product: a later identical line on an unchanged product writes nothing. */
export const lineDigest = (text: string) => createHash('sha256').update(text).digest('base64');

/**
 * A line checked as the POST body, with its key: the supplied handle, slugified (empty when it slugifies
 * to nothing: the create's checks then refuse it as the API does). Throws the API's AppError.
 */
export function checkProductLine(line: unknown, handling: Handling): { input: CreateProductInput; handle: string } {
  const input = checkLine(line, handling);
  if (input.handle === undefined) throw invalidField('handle', 'is required in an import line: it is the key the line is matched by');
  return { input, handle: suppliedSlug(input.handle) };
}

/**
 * Whether the line is the last import line applied to the matched product, nothing having changed the
 * product since (its updatedAt is the one that write left): applying it again would change nothing. A named
 * attribute set must still be the product's (deleting a set clears it without moving updatedAt).
 */
export function unchangedSinceImport(match: ImportMatch, input: CreateProductInput, digest: string): boolean {
  if (match.import_digest !== digest) return false;
  return !input.attributeSet || input.attributeSet === match.attribute_set_id;
}
