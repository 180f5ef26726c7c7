import { readFile } from 'node:fs/promises';
import { text } from 'node:stream/consumers';
import { CliError } from './cli-error.js';

/**
 * The items a command sends, from a file or stdin (`-`): a JSON array, a JSON object with `items` (the body
 * the API takes), or NDJSON (one item a line, blank lines skipped), so `… prices --id A > a.json` and a
 * spreadsheet's NDJSON both work. What an item holds is the API's to check.
 */
export async function readItems(file: string): Promise<unknown[]> {
  const name = file === '-' ? 'stdin' : file;
  const content = await contentOf(file, name);
  const items = parseItems(content, name);
  if (items.length === 0) throw new CliError(`${name} holds no items`);
  return items;
}

async function contentOf(file: string, name: string): Promise<string> {
  try {
    const content = file === '-' ? await text(process.stdin) : await readFile(file, 'utf8');
    // a byte-order mark (what Windows editors write) is no part of the JSON
    return content.replace(/^\uFEFF/, '');
  } catch (error) {
    throw new CliError(`cannot read ${name}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

function parseItems(content: string, name: string): unknown[] {
  const whole = wholeJson(content);
  if (whole !== undefined) {
    if (Array.isArray(whole)) return whole;
    if (isObject(whole) && Array.isArray(whole.items)) return whole.items;
    return [whole];
  }
  const items: unknown[] = [];
  for (const [index, line] of content.split(/\r?\n/).entries()) {
    if (line.trim() === '') continue;
    try {
      items.push(JSON.parse(line));
    } catch (error) {
      throw new CliError(
        `${name} line ${index + 1} is not JSON (${(error as Error).message}): give a JSON array, {"items": [...]} or NDJSON`,
      );
    }
  }
  return items;
}

/** The content as one JSON value, or undefined when it is not one (NDJSON of more than one line). */
function wholeJson(content: string): unknown {
  try {
    return JSON.parse(content);
  } catch {
    return undefined;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
