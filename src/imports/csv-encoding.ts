import iconv from 'iconv-lite';
import { AppError } from '../errors.js';
import { type ImportEncoding, isImportEncoding } from '../jobs/index.js';

/**
 * The character encodings of CSV uploads (docs/csv-import.md, "Encodings"). A file is UTF-8 unless its
 * `content-type` names `charset=windows-1252` or `iso-8859-1`, or, naming none, it is not valid UTF-8: then it is
 * read as Windows-1252, what Excel writes on Windows. Nothing here holds the file: the upload is checked chunk by
 * chunk as it is stored, and the job decodes cell by cell.
 *
 * How a single-byte file is read without breaking resume positions (byte offsets into the upload): csv-parse
 * reads its bytes as `latin1` (one character per byte, so its offsets stay the file's), and each cell is then
 * decoded by iconv-lite from those bytes. The bytes that carry CSV's structure (quote, delimiters, newlines) are
 * ASCII in all three encodings, so records split exactly where they would after decoding.
 */

/** The one character a cell can never bring into the store: what a decoder gives for bytes it cannot read. */
export const UNREADABLE = '\uFFFD';

const NON_ASCII = /[\u0080-\u00ff]/;
// ISO-8859-1 has C1 control characters at 0x80–0x9F, which no text uses: a file holding them is not what it says
const C1_CONTROLS = /[\u0080-\u009f]/g;

/**
 * The charset a `content-type` names: undefined when it names none; anything but the three read here is a 415
 * (refused before a byte of the body is read).
 */
export function charsetOf(contentType: string | undefined): ImportEncoding | undefined {
  const match = /;\s*charset\s*=\s*"?([^";\s]*)"?/i.exec(contentType ?? '');
  if (!match) return undefined;
  const named = match[1].toLowerCase();
  const encoding = named === 'utf8' ? 'utf-8' : named === 'cp1252' ? 'windows-1252' : named === 'latin1' ? 'iso-8859-1' : named;
  if (isImportEncoding(encoding)) return encoding;
  throw new AppError(
    415,
    'UNSUPPORTED_MEDIA_TYPE',
    `A CSV file's charset must be utf-8, windows-1252 or iso-8859-1 (or none: UTF-8, else Windows-1252), not ${match[1]}`,
  );
}

/** Whether the bytes given so far, chunk by chunk, are UTF-8: a sequence split across chunks is carried over. */
export function utf8Check() {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let valid = true;
  return {
    add(chunk: Buffer) {
      if (!valid) return;
      try {
        decoder.decode(chunk, { stream: true });
      } catch {
        valid = false;
      }
    },
    /** the whole file's answer: no chunk failed and no sequence was left unfinished */
    end(): boolean {
      if (!valid) return false;
      try {
        decoder.decode();
        return true;
      } catch {
        return false;
      }
    },
    /** the answer so far (a later chunk may still fail) */
    get valid() {
      return valid;
    },
  };
}

/** The encoding csv-parse reads the bytes with (above): UTF-8 itself, else one character per byte. */
export const parserEncodingOf = (encoding: ImportEncoding): 'utf8' | 'latin1' => (encoding === 'utf-8' ? 'utf8' : 'latin1');

/**
 * The cells of a record as the file's encoding reads them (csv-parse read them with `parserEncodingOf`). A byte
 * that cannot be read becomes UNREADABLE, which `unreadableCell` finds.
 */
export function cellDecoder(encoding: ImportEncoding): (cell: string) => string {
  if (encoding === 'utf-8') return (cell) => cell;
  if (encoding === 'iso-8859-1') return (cell) => cell.replace(C1_CONTROLS, UNREADABLE);
  return (cell) => (NON_ASCII.test(cell) ? iconv.decode(Buffer.from(cell, 'latin1'), 'windows-1252') : cell);
}

/** The index of the first cell holding a character that could not be read, or -1. */
export const unreadableCell = (cells: readonly string[]): number => cells.findIndex((cell) => cell.includes(UNREADABLE));

/** What an unreadable cell's line is told. */
export const unreadableMessage = (encoding: ImportEncoding) =>
  encoding === 'utf-8'
    ? 'holds bytes that are not valid UTF-8 (or the replacement character U+FFFD); save the file as UTF-8, or send it with its charset'
    : `holds a byte that ${encoding === 'iso-8859-1' ? 'ISO-8859-1 text does not use (0x80–0x9F; is the file windows-1252?)' : 'Windows-1252 does not define'}`;

/** An NDJSON line that is not valid UTF-8 (NDJSON has no other encoding). */
export const notUtf8Line = () =>
  new AppError(400, 'VALIDATION_ERROR', 'The line is not valid UTF-8 (or holds the replacement character U+FFFD, which is never stored)');
