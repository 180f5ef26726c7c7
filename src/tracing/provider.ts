import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';

/**
 * The OpenTelemetry SDK and its OTLP exporters: loaded by startTracing (tracing.ts) only when traces are
 * wanted. Imported by every server, they cost ~9 MB of RSS (the protobuf exporter's runtime most of it) in
 * processes that never trace.
 */

type Env = Record<string, string | undefined>;

/** OTLP over HTTP in the protocol asked for: http/protobuf (the standard's default) or http/json. */
function exporterFor(env: Env) {
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf').trim();
  if (protocol === 'http/json') return new JsonExporter();
  if (protocol === 'http/protobuf') return new ProtobufExporter();
  throw new Error(`OTEL_EXPORTER_OTLP_PROTOCOL=${protocol} is not supported: use http/protobuf or http/json`);
}

/** Registers the SDK as the process's tracer provider and context manager; returns its shutdown. */
export function registerTracerProvider(env: Env, version: string): () => Promise<void> {
  // Ours unless OTEL_SERVICE_NAME or OTEL_RESOURCE_ATTRIBUTES say otherwise (the environment wins).
  const resource = defaultResource()
    .merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: 'storefront', [ATTR_SERVICE_VERSION]: version }))
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(exporterFor(env))] });
  // The context manager (AsyncLocalStorage) carries a request's span into its statements; W3C trace context.
  provider.register();
  return () => provider.shutdown();
}
