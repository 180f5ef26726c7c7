import { context, SpanKind, SpanStatusCode, type Tracer, trace } from '@opentelemetry/api';
import type { StatementObserver } from '../db/index.js';

/**
 * A span per database statement, a child of the operation that sent it (a request, a job batch, a
 * webhook attempt). Statements sent outside any traced operation (the background loops' polls, the
 * migrations) make no span: each would be a trace of one statement. The text is the statement as sent,
 * with `$n` placeholders and never their values; the statements that travel with a COMMIT have their
 * values written in (src/db/statements/deferred.ts), so every string literal is masked as '?'.
 */

// Statements repeat: their span name and masked text are worked out once per text (up to this many kept).
const KEPT = 1000;
const MAX_TEXT = 2000;
const LITERAL = /E?'(?:[^']|'')*'/g;
const LEADING_COMMENT = /^\s*(?:\/\*.*?\*\/\s*)*/s;
const TARGET = /\b(?:FROM|INTO|UPDATE|JOIN)\s+"?([a-z_][a-z0-9_]*)"?/i;

interface Shape {
  name: string;
  text: string;
}

/** `SELECT products`, `INSERT events`, `COMMIT`: the operation and the first table it names. */
export function summarize(text: string): string {
  const body = text.replace(LEADING_COMMENT, '');
  const operation = (/^[a-z]+/i.exec(body)?.[0] ?? 'SQL').toUpperCase();
  const target = TARGET.exec(body)?.[1];
  return target ? `${operation} ${target}` : operation;
}

/** The text as a span may carry it: string literals masked, at most MAX_TEXT characters. */
export function maskedText(text: string): string {
  const masked = text.includes("'") ? text.replace(LITERAL, "'?'") : text;
  return masked.length > MAX_TEXT ? `${masked.slice(0, MAX_TEXT)}…` : masked;
}

export function statementSpans(tracer: Tracer): StatementObserver {
  const shapes = new Map<string, Shape>();
  const shapeOf = (text: string): Shape => {
    let shape = shapes.get(text);
    if (!shape) {
      shape = { name: summarize(text), text: maskedText(text) };
      // Texts with values written in are each new: a full cache starts over rather than grow.
      if (shapes.size >= KEPT) shapes.clear();
      shapes.set(text, shape);
    }
    return shape;
  };
  return (text) => {
    const parent = context.active();
    if (!trace.getSpan(parent)?.isRecording()) return undefined;
    const shape = shapeOf(text);
    const span = tracer.startSpan(
      shape.name,
      { kind: SpanKind.CLIENT, attributes: { 'db.system.name': 'postgresql', 'db.query.text': shape.text } },
      parent,
    );
    return (error) => {
      if (error) {
        span.recordException(error as Error);
        span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
        const code = (error as { code?: unknown }).code;
        if (typeof code === 'string') span.setAttribute('db.response.status_code', code);
      }
      span.end();
    };
  };
}
