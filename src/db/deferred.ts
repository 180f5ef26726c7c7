import { type RawBuilder, sql } from 'kysely';

/**
 * Statements that travel with their transaction's COMMIT (docs/performance.md, "Events with the commit").
 *
 * A write's last statement (its event INSERT) needs no answer before the transaction ends, so instead of a
 * round trip of its own it is held by the connection and sent in one simple-protocol message with the
 * next statement without parameters: `INSERT …; commit`. PostgreSQL runs a multi-statement message in
 * order and stops at the first error, so a failing held statement fails the COMMIT, and the caller rolls
 * back as it would have. A ROLLBACK simply drops what is held. A statement with parameters cannot share a
 * message, so one arriving first sends the held ones ahead of it (the round trip is then not saved, and
 * nothing is lost). Outside a transaction nothing is held.
 *
 * The held text has no parameters: its values are written as literals (`literal`).
 */
const MARK = '/* sf:with-commit */ ';

/** A statement (values inlined with `literal`) that the connection may hold until the transaction's next parameterless one. */
export function withCommit(text: string): RawBuilder<unknown> {
  return sql.raw(MARK + text);
}

/** A string as a PostgreSQL literal, safe whatever it holds (quotes, backslashes). */
export function literal(value: string): string {
  const quoted = `'${value.replaceAll("'", "''")}'`;
  // With backslashes, the escape-string form, so the literal means the same whatever standard_conforming_strings is.
  return value.includes('\\') ? `E${quoted.replaceAll('\\', '\\\\')}` : quoted;
}

/** How one connection runs a statement: text and parameters, as its driver takes them. */
export type Run<R> = (text: string, values: readonly unknown[]) => Promise<R>;

/**
 * Wraps a connection's `run` (one wrapper per connection: what it holds is that session's) so that
 * statements marked `withCommit` wait for the transaction's next parameterless statement. `heldResult`
 * is what a held statement resolves to (its rows are never read); `last` picks the final statement's
 * result from a multi-statement answer.
 */
export function holdingForCommit<R>(run: Run<R>, heldResult: () => R, last: (answer: R) => R): Run<R> {
  let held: string[] = [];
  let inTransaction = false;
  return async (text, values) => {
    const command = text.trimStart().slice(0, 20).toLowerCase();
    if (command === 'begin' || command.startsWith('start transaction')) inTransaction = true;
    if (inTransaction && text.startsWith(MARK) && !values.length) {
      held.push(text);
      return heldResult();
    }
    const ending = command === 'commit' || command === 'rollback';
    if (ending) inTransaction = false;
    if (!held.length) return run(text, values);
    const sending = held;
    held = [];
    if (command === 'rollback') return run(text, values);
    if (values.length) {
      await run(sending.join(';\n'), []);
      return run(text, values);
    }
    return last(await run(`${sending.join(';\n')};\n${text}`, []));
  };
}
