import { type RawBuilder, sql } from 'kysely';

/**
 * Statements that travel with their transaction's COMMIT (docs/decisions.md, "Statements with the COMMIT").
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
const AFTER_MARK = '/* sf:after-commit */ ';

/** A statement (values inlined with `literal`) that the connection may hold until the transaction's next parameterless one. */
export function withCommit(text: string): RawBuilder<unknown> {
  return sql.raw(MARK + text);
}

/**
 * A statement (values inlined) held until the transaction's COMMIT and sent after it in the same message,
 * so it runs in a transaction of its own once the write has committed, and not at all if the COMMIT (or a
 * statement before it) fails or the transaction rolls back. For a write's NOTIFY: inside the transaction,
 * PostgreSQL takes a database-wide lock at its commit and holds it until the commit's WAL flush, so every
 * notifying commit waited for the previous one's flush (pgbench, 20 clients: 510–710 commits/s with the NOTIFY
 * inside, 2,500–2,600 with it after the COMMIT). A transaction that only notifies writes no WAL to wait for.
 */
export function afterCommit(text: string): RawBuilder<unknown> {
  return sql.raw(AFTER_MARK + text);
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
 * A statement with its parameters written in as literals, so it can share a simple-protocol message; or
 * undefined when it cannot be (a binary value, or a text the scan for `$n` outside quotes does not follow).
 */
export type Inline = (text: string, values: readonly unknown[]) => string | undefined;

/**
 * Wraps a connection's `run` (one wrapper per connection: what it holds is that session's) so that
 * statements marked `withCommit` wait for the transaction's next parameterless statement, and those marked
 * `afterCommit` follow its COMMIT. With `inline`, the BEGIN is held too and travels with the transaction's
 * first statement, whose parameters are then written in as literals: one round trip less per transaction
 * (docs/decisions.md, "The BEGIN with the first statement"). `heldResult` is what a held
 * statement resolves to (its rows are never read); `last` picks the final statement's result from a
 * multi-statement answer.
 */
export function holdingForCommit<R>(run: Run<R>, heldResult: () => R, last: (answer: R) => R, inline?: Inline): Run<R> {
  let held: string[] = [];
  let after: string[] = [];
  let inTransaction = false;
  let beginHeld = false;
  return async (text, values) => {
    const command = text.trimStart().slice(0, 20).toLowerCase();
    if (command === 'begin' || command.startsWith('start transaction')) {
      inTransaction = true;
      if (inline && !held.length) {
        held = [text];
        beginHeld = true;
        return heldResult();
      }
    }
    if (inTransaction && !values.length && (text.startsWith(MARK) || text.startsWith(AFTER_MARK))) {
      (text.startsWith(MARK) ? held : after).push(text);
      return heldResult();
    }
    const ending = command === 'commit' || command === 'rollback';
    const following = command === 'commit' ? after : [];
    if (ending) {
      inTransaction = false;
      after = [];
    }
    const neverBegun = beginHeld;
    beginHeld = false;
    if (!held.length && !following.length) return run(text, values);
    const sending = held;
    held = [];
    // nothing reached the server: there is nothing to roll back
    if (command === 'rollback') return neverBegun ? heldResult() : run(text, values);
    const written = values.length ? inline?.(text, values) : text;
    if (written === undefined) {
      await run(sending.join(';\n'), []);
      return run(text, values);
    }
    return last(await run([...sending, written, ...following].join(';\n'), []));
  };
}

/**
 * Each value as a PostgreSQL literal (`format` turns a value into the driver's text for it, null for NULL,
 * or a Buffer for a binary one), or undefined when one is binary. A literal has the type "unknown" until its
 * context gives it one, exactly as an untyped parameter does.
 */
export function literalsWith(format: (value: unknown) => unknown): (values: readonly unknown[]) => string[] | undefined {
  return (values) => {
    const literals: string[] = [];
    for (const value of values) {
      const formatted = format(value);
      if (formatted === null) literals.push('NULL');
      else if (typeof formatted === 'string') literals.push(literal(formatted));
      else return undefined;
    }
    return literals;
  };
}

/** What the scan below does not follow: comments, dollar quotes (tagged ones too) and backslash-escaped quotes. */
const UNSCANNED = /--|\/\*|\$\w*\$|\\'/;
const QUOTED_OR_PLACEHOLDER = /'(?:[^']|'')*'|\$(\d+)/g;

/**
 * `inline` for a driver whose parameters are text: `$n` replaced by the value as a literal, so the
 * statement means the same (see literalsWith).
 */
export function inlineWith(format: (value: unknown) => unknown): Inline {
  const literalsOf = literalsWith(format);
  return (text, values) => {
    if (UNSCANNED.test(text)) return undefined;
    const literals = literalsOf(values);
    if (!literals) return undefined;
    // quoted strings are passed over whole, so a `$1` inside one stays as it is
    return text.replace(QUOTED_OR_PLACEHOLDER, (match, n?: string) => (n === undefined ? match : (literals[Number(n) - 1] ?? match)));
  };
}

/**
 * A statement prepared on the session under `name`, run with its values as literals: `EXECUTE "name"(…)`.
 * It can share a simple-protocol message as an inlined text can, and PostgreSQL neither parses nor plans
 * the statement again: it runs the session's prepared one, as a Bind/Execute of it would.
 */
export function executeText(name: string, literals: readonly string[]): string {
  const args = literals.length ? `(${literals.join(', ')})` : '';
  return `EXECUTE "${name.replaceAll('"', '""')}"${args}`;
}
