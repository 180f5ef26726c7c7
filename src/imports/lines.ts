import { createReadStream } from 'node:fs';

/** One line of an import file: its number (from 1, blank lines counted) and where the next line starts. */
export interface FileLine {
  line: number;
  /** the line's text without its newline; null when it was longer than the limit (not kept in memory) */
  text: string | null;
  /** bytes into the file just past this line's newline: a resume position */
  end: number;
}

const NEWLINE = 0x0a;

/**
 * Reads a file's lines from a byte position (a line boundary: where a committed batch ended), holding one
 * line at a time. A line over `maxLineBytes` comes back with `text: null`, its bytes skipped.
 */
export async function* readLines(path: string, start: number, firstLine: number, maxLineBytes: number): AsyncGenerator<FileLine> {
  let line = firstLine;
  let position = start;
  let parts: Buffer[] = [];
  let length = 0;
  let overLong = false;
  const take = (end: number): FileLine => {
    line++;
    const text = overLong ? null : Buffer.concat(parts, length).toString('utf8');
    parts = [];
    length = 0;
    overLong = false;
    return { line, text, end };
  };
  for await (const chunk of createReadStream(path, { start, highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>) {
    let from = 0;
    while (from < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, from);
      const until = newline === -1 ? chunk.length : newline;
      if (!overLong) {
        if (length + (until - from) > maxLineBytes) {
          overLong = true;
          parts = [];
        } else parts.push(chunk.subarray(from, until));
        length += until - from;
      }
      if (newline === -1) break;
      yield take(position + newline + 1);
      from = newline + 1;
    }
    position += chunk.length;
  }
  // a last line without a newline
  if (length > 0 || overLong) yield take(position);
}
