import { readFileSync } from 'node:fs';
import { type Tracer, trace } from '@opentelemetry/api';
import type { StatementObserver } from '../db/index.js';
import { statementSpans } from './statements.js';

/**
 * Traces (OpenTelemetry, OTLP over HTTP), on only when OTEL_EXPORTER_OTLP_ENDPOINT (or its traces-only
 * form) is set. Started explicitly by the server process (server.ts), never on import: it loads and registers
 * the SDK (provider.ts) as the process's tracer provider and context manager, then the request hooks (requests.ts), the
 * database's statement observer (statements.ts) and the job and webhook spans (spans.ts) produce spans.
 * The exporter and the SDK read the standard variables themselves: OTEL_SERVICE_NAME,
 * OTEL_RESOURCE_ATTRIBUTES, OTEL_EXPORTER_OTLP_HEADERS, OTEL_EXPORTER_OTLP_TIMEOUT, OTEL_TRACES_SAMPLER(_ARG),
 * OTEL_BSP_*, OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT, …
 */

export interface Tracing {
  tracer: Tracer;
  /** the database's hook: a span per statement sent inside a traced operation */
  observeStatement: StatementObserver;
  /** sends the spans still buffered and stops */
  shutdown(): Promise<void>;
}

export const TRACER_NAME = 'storefront';

type Env = Record<string, string | undefined>;

/** This package's version, for the resource (package.json is one level up from src/, two from dist/src/). */
function packageVersion(): string {
  for (const path of ['../../package.json', '../../../package.json']) {
    try {
      const parsed = JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (parsed.name === 'storefront' && parsed.version) return parsed.version;
    } catch {
      // not there: the other layout
    }
  }
  return 'unknown';
}

/** Whether the environment asks for traces. */
export function tracingWanted(env: Env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  if (env.OTEL_TRACES_EXPORTER !== undefined && env.OTEL_TRACES_EXPORTER.trim().toLowerCase() === 'none') return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

/**
 * Starts tracing when the environment asks for it; null (and nothing registered, nothing of the SDK loaded)
 * otherwise.
 */
export async function startTracing(env: Env = process.env): Promise<Tracing | null> {
  if (!tracingWanted(env)) return null;
  const version = packageVersion();
  const { registerTracerProvider } = await import('./provider.js');
  const shutdown = registerTracerProvider(env, version);
  const tracer = trace.getTracer(TRACER_NAME, version);
  return { tracer, observeStatement: statementSpans(tracer), shutdown };
}
