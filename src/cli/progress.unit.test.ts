import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { csvRecordCounter } from './export.js';
import { etaText, startProgress } from './progress.js';

/** A stream that says it is a terminal, keeping what the bar draws. */
function fakeTerminal() {
  const stream = Object.assign(new PassThrough(), { isTTY: true, columns: 120 });
  let drawn = '';
  stream.on('data', (chunk) => (drawn += chunk));
  return { stream: stream as unknown as NodeJS.WriteStream, drawn: () => drawn };
}

describe('the progress bar', () => {
  it('shows no ETA before anything is done, then one from the rate', () => {
    expect(etaText(0, 1000, 5_000)).toBe('--');
    expect(etaText(10, null, 5_000)).toBe('--');
    expect(etaText(100, 1000, 10_000)).toBe('1m30s');
    expect(etaText(500, 1000, 1_000)).toBe('1s');
    expect(etaText(1000, 1000, 1_000)).toBe('0s');
    expect(etaText(1, 10_000, 3_600_000)).toBe('9999h00m');
  });

  it('never draws the `ETA NFs` of a zero rate while a job waits for its first batch', async () => {
    const terminal = fakeTerminal();
    const progress = startProgress('processed', terminal.stream);
    progress.update({ done: 0, total: 1000 });
    await new Promise((resolve) => setTimeout(resolve, 250));
    progress.update({ done: 0, total: 1000 });
    progress.stop();
    expect(terminal.drawn()).toContain('0/1000');
    expect(terminal.drawn()).toContain('ETA --');
    expect(terminal.drawn()).not.toMatch(/NF|NULL|LLs|INF/);
  });
});

describe('counting the rows of a CSV export', () => {
  it('counts records after the header, not the newlines inside quoted cells', async () => {
    const counts: number[] = [];
    const count = csvRecordCounter((n) => counts.push(n));
    const chunks = ['Handle,Body (HTML)\ntee,"<p>one\nline ""two', '""</p>"\nmug,\n', 'cap,"a\r\nb"\n'];
    const passed: string[] = [];
    for await (const chunk of count(
      (async function* () {
        for (const text of chunks) yield Buffer.from(text);
      })(),
    ))
      passed.push(String(chunk));
    expect(passed.join('')).toBe(chunks.join(''));
    expect(counts).toEqual([0, 2, 3]);
  });
});
