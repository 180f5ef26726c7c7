import { type PGlite, parse, protocol } from '@electric-sql/pglite';
import { PLAN_CHANGED, StatementNames } from './statement-names.js';

/**
 * Statements with parameters, run on PGlite's wire protocol (docs/performance.md, "Round 3: PGlite reads").
 *
 * `db.query` runs Parse, Describe, Bind, Describe, Execute and Sync as six calls into the WASM engine for
 * every statement, so every read is parsed and planned again. Here a statement named by statement-names.ts
 * (the rules PostgreSQL mode follows) is parsed once per session and its parameter types kept; afterwards
 * one call sends Bind/Describe/Execute/Sync. An unnamed one takes two calls (Parse and Describe, then the
 * rest): the parameters' types, which pick their serializers, are known only after Parse.
 * Values are serialized and rows parsed exactly as `db.query` does (PGlite's own serializers and parsers).
 */

const { serialize } = protocol;

/** json and jsonb: their values leave the worker as text (see `StatementResult.json`). */
const JSON_TYPES = [114, 3802];

/** A statement's rows; the columns named in `json` hold JSON text for the main thread to parse. */
export interface StatementResult {
  rows: Record<string, unknown>[];
  affectedRows: number;
  json: string[];
}

export class PgliteStatements {
  private readonly names = new StatementNames();
  /** Parameter type OIDs of the statements this session has prepared, by name. */
  private readonly paramTypes = new Map<string, number[]>();

  /**
   * PGlite's parsers, but json and jsonb left as text: a parsed document (a list page's variants) is many
   * small objects, which cost the worker a JSON.parse and then a slow structured clone both ways; a string
   * crosses as one copy and JSON.parse on the main thread is cheaper than the clone it replaces.
   */
  private readonly parsers: PGlite['parsers'];

  constructor(private readonly db: PGlite) {
    this.parsers = { ...db.parsers, ...Object.fromEntries(JSON_TYPES.map((type) => [type, (text: string) => text])) };
  }

  /** Runs one statement with parameters; PGlite's own lock keeps it whole against anything else on the session. */
  query(text: string, params: readonly unknown[]): Promise<StatementResult> {
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

  private async run(text: string, params: readonly unknown[], name: string | undefined): Promise<StatementResult> {
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
    const result = parse.parseResults(messages, this.parsers)[0];
    if (!result) return { rows: [], affectedRows: 0, json: [] };
    const json = result.fields.filter((field) => JSON_TYPES.includes(field.dataTypeID)).map((field) => field.name);
    return { rows: result.rows as Record<string, unknown>[], affectedRows: result.affectedRows ?? 0, json };
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
