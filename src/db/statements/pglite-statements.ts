import { type PGlite, parse, protocol, type Results } from '@electric-sql/pglite';
import { PLAN_CHANGED, StatementNames } from './statement-names.js';

/**
 * Statements with parameters, run on PGlite's wire protocol (docs/decisions.md, "Named prepared statements").
 *
 * `db.query` runs Parse, Describe, Bind, Describe, Execute and Sync as six calls into the WASM engine for
 * every statement, so every read is parsed and planned again. Here a statement named by statement-names.ts
 * (the rules PostgreSQL mode follows) is parsed once per session and its parameter types kept; afterwards
 * one call sends Bind/Describe/Execute/Sync. An unnamed one takes two calls (Parse and Describe, then the
 * rest): the parameters' types, which pick their serializers, are known only after Parse.
 * Values are serialized and rows parsed exactly as `db.query` does (PGlite's own serializers and parsers).
 */

const { serialize } = protocol;

export class PgliteStatements {
  private readonly names = new StatementNames();
  /** Parameter type OIDs of the statements this session has prepared, by name. */
  private readonly paramTypes = new Map<string, number[]>();

  constructor(private readonly db: PGlite) {}

  /** Runs one statement with parameters; PGlite's own lock keeps it whole against anything else on the session. */
  query(text: string, params: readonly unknown[]): Promise<Results> {
    return this.db.runExclusive(async () => {
      const name = this.names.nameOf(text);
      try {
        return await this.run(text, params, name);
      } catch (error) {
        if (name && (error as { code?: string }).code === PLAN_CHANGED) await this.forget(text, name);
        throw error;
      }
    });
  }

  private async run(text: string, params: readonly unknown[], name: string | undefined): Promise<Results> {
    const types = (name && this.paramTypes.get(name)) || (await this.prepare(text, name ?? ''));
    const values = params.map((value, index) => this.serialized(value, types[index]));
    const messages = await this.db.execProtocolStream(
      concat([
        serialize.bind({ statement: name ?? '', values }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ]),
      // Like db.query outside a transaction: the data files are synced after each statement.
      { syncToFs: true },
    );
    return parse.parseResults(messages, this.db.parsers)[0] ?? { rows: [], fields: [], affectedRows: 0 };
  }

  /** Parse (named: once per session) and the parameters' types. */
  private async prepare(text: string, name: string): Promise<number[]> {
    const messages = await this.db.execProtocolStream(
      concat([serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync()]),
      { syncToFs: false },
    );
    const types = parse.parseDescribeStatementResults(messages);
    if (name) this.paramTypes.set(name, types);
    return types;
  }

  private serialized(value: unknown, type: number | undefined): string | null {
    if (value === null || value === undefined) return null;
    const serializer = type === undefined ? undefined : this.db.serializers[type];
    return serializer ? serializer(value) : String(value);
  }

  /** A plan that no longer fits its table: never named again, and its statement closed. */
  private async forget(text: string, name: string): Promise<void> {
    this.names.forget(text);
    this.paramTypes.delete(name);
    await this.db.execProtocolStream(concat([serialize.close({ type: 'S', name }), serialize.sync()]), { syncToFs: false });
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
  const whole = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    whole.set(part, offset);
    offset += part.length;
  }
  return whole;
}
