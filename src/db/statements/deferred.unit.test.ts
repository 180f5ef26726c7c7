import { describe, expect, it } from 'vitest';
import { holdingForCommit, type Inline, inlineWith, literal } from './deferred.js';

// What `withCommit('INSERT INTO t VALUES (1)')` sends: the statement behind the connection's mark.
const HELD = '/* sf:with-commit */ INSERT INTO t VALUES (1)';
// What `afterCommit("SELECT pg_notify('c', 'p')")` sends.
const AFTER = "/* sf:after-commit */ SELECT pg_notify('c', 'p')";

/** A connection that records what it was sent and answers each message with its text. */
function recording(inline?: Inline) {
  const sent: [string, readonly unknown[]][] = [];
  const run = holdingForCommit<string>(
    async (text, values) => {
      sent.push([text, values]);
      return text;
    },
    () => 'held',
    (answer) => `last of ${answer}`,
    inline,
  );
  return { sent, run };
}

describe('statements held for the commit', () => {
  it('sends a held statement and the COMMIT in one message', async () => {
    const { sent, run } = recording();
    await run('begin', []);
    expect(await run(HELD, [])).toBe('held');
    await run('commit', []);
    expect(sent).toEqual([
      ['begin', []],
      [`${HELD};\ncommit`, []],
    ]);
  });

  it('drops what it holds on ROLLBACK', async () => {
    const { sent, run } = recording();
    await run('begin', []);
    await run(HELD, []);
    await run('rollback', []);
    expect(sent.map(([text]) => text)).toEqual(['begin', 'rollback']);
  });

  it('sends held statements ahead of a statement with parameters', async () => {
    const { sent, run } = recording();
    await run('begin', []);
    await run(HELD, []);
    await run('select $1', [1]);
    await run('commit', []);
    expect(sent).toEqual([
      ['begin', []],
      [HELD, []],
      ['select $1', [1]],
      ['commit', []],
    ]);
  });

  it('holds nothing outside a transaction, nor after its end', async () => {
    const { sent, run } = recording();
    await run(HELD, []);
    await run('begin', []);
    await run('commit', []);
    await run(HELD, []);
    expect(sent.map(([text]) => text)).toEqual([HELD, 'begin', 'commit', HELD]);
  });

  it('sends an after-commit statement behind the COMMIT, in the same message, and only behind the COMMIT', async () => {
    const { sent, run } = recording();
    await run('begin', []);
    expect(await run(AFTER, [])).toBe('held');
    await run(HELD, []);
    await run('select $1', [1]);
    await run('release savepoint "a"', []);
    await run('commit', []);
    expect(sent).toEqual([
      ['begin', []],
      [HELD, []],
      ['select $1', [1]],
      ['release savepoint "a"', []],
      [`commit;\n${AFTER}`, []],
    ]);
  });

  it('drops an after-commit statement on ROLLBACK, and holds none outside a transaction', async () => {
    const { sent, run } = recording();
    await run('begin', []);
    await run(HELD, []);
    await run(AFTER, []);
    await run('rollback', []);
    await run(AFTER, []);
    await run('begin', []);
    await run('commit', []);
    expect(sent.map(([text]) => text)).toEqual(['begin', 'rollback', AFTER, 'begin', 'commit']);
  });

  it('answers with the last statement of a combined message', async () => {
    const { run } = recording();
    await run('begin', []);
    await run(HELD, []);
    expect(await run('release savepoint "a"', [])).toBe(`last of ${HELD};\nrelease savepoint "a"`);
  });
});

describe('literal', () => {
  it('doubles quotes', () => {
    expect(literal("it's")).toBe("'it''s'");
  });

  it('writes backslashes in the escape-string form', () => {
    expect(literal("a\\b'c")).toBe("E'a\\\\b''c'");
  });
});

describe('the BEGIN held for the first statement (with an inliner)', () => {
  const inline = inlineWith((value) => (value instanceof Uint8Array ? value : value == null ? null : String(value)));
  const recordingInlined = () => recording(inline);

  it('sends the BEGIN with the first statement, its parameters written as literals', async () => {
    const { sent, run } = recordingInlined();
    expect(await run('begin', [])).toBe('held');
    expect(await run('insert into t values ($1, $2, $10)', ["it's", null, ...Array(7).fill(0), 'ten'])).toBe(
      "last of begin;\ninsert into t values ('it''s', NULL, 'ten')",
    );
    await run('select $1', [1]);
    await run(HELD, []);
    await run('commit', []);
    expect(sent.map(([text]) => text)).toEqual(["begin;\ninsert into t values ('it''s', NULL, 'ten')", 'select $1', `${HELD};\ncommit`]);
  });

  it('leaves what is quoted as it is', async () => {
    const { sent, run } = recordingInlined();
    await run('begin', []);
    await run("select $1, ' $1 '' $2 ', E' ', $2", ['a', 'b']);
    expect(sent.map(([text]) => text)).toEqual(["begin;\nselect 'a', ' $1 '' $2 ', E' ', 'b'"]);
  });

  it.each([
    ["select $1 where x = E'\\'' "],
    ['select $1 /* a comment */'],
    ['select $1 -- a comment'],
    ['select $$ $1 $$'],
  ])('sends the BEGIN alone before a text the scan does not follow: %s', async (text) => {
    const { sent, run } = recordingInlined();
    await run('begin', []);
    await run(text, [1]);
    expect(sent.map(([sentText]) => sentText)).toEqual(['begin', text]);
  });

  it('sends the BEGIN alone before a binary value', async () => {
    const { sent, run } = recordingInlined();
    await run('begin', []);
    await run('select $1', [new Uint8Array([1])]);
    expect(sent.map(([text]) => text)).toEqual(['begin', 'select $1']);
  });

  it('sends nothing for a transaction rolled back before its first statement, and BEGIN with a bare COMMIT', async () => {
    const { sent, run } = recordingInlined();
    await run('begin', []);
    await run(HELD, []);
    expect(await run('rollback', [])).toBe('held');
    await run('begin', []);
    await run('commit', []);
    expect(sent.map(([text]) => text)).toEqual(['begin;\ncommit']);
  });
});
