/** The public surface of src/tracing: OpenTelemetry traces, started by the server when OTLP is configured. */
export { registerRequestSpans } from './requests.js';
export { inSpan } from './spans.js';
export { startTracing, type Tracing, tracingWanted } from './tracing.js';
