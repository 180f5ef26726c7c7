import { readFileSync } from 'node:fs';
import { type Tracer, trace } from '@opentelemetry/api';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import type { StatementObserver } from '../db/index.js';
import { statementSpans } from './statements.js';

/**
 * Traces (OpenTelemetry, OTLP over HTTP), on only when OTEL_EXPORTER_OTLP_ENDPOINT (or its traces-only
 * form) is set. Started explicitly by the server process (server.ts), never on import: it registers the
 * SDK as the process's tracer provider and context manager, then the request hooks (requests.ts), the
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

/** OTLP over HTTP in the protocol asked for: http/protobuf (the standard's default) or http/json. */
function exporterFor(env: Env) {
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf').trim();
  if (protocol === 'http/json') return new JsonExporter();
  if (protocol === 'http/protobuf') return new ProtobufExporter();
  throw new Error(`OTEL_EXPORTER_OTLP_PROTOCOL=${protocol} is not supported: use http/protobuf or http/json`);
}

/** Starts tracing when the environment asks for it; null (and nothing registered) otherwise. */
export function startTracing(env: Env = process.env): Tracing | null {
  if (!tracingWanted(env)) return null;
  const version = packageVersion();
  // Ours unless OTEL_SERVICE_NAME or OTEL_RESOURCE_ATTRIBUTES say otherwise (the environment wins).
  const resource = defaultResource()
    .merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: 'storefront', [ATTR_SERVICE_VERSION]: version }))
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(exporterFor(env))] });
  // The context manager (AsyncLocalStorage) carries a request's span into its statements; W3C trace context.
  provider.register();
  const tracer = trace.getTracer(TRACER_NAME, version);
  return {
    tracer,
    observeStatement: statementSpans(tracer),
    shutdown: () => provider.shutdown(),
  };
}
