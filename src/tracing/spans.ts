import { type Attributes, SpanStatusCode, trace } from '@opentelemetry/api';

/**
 * A span around one unit of background work (a job batch, a webhook attempt), through the OpenTelemetry
 * API: with tracing off no provider is registered and the API's no-op tracer costs a few allocations per
 * call; with it on, the statements the work sends become the span's children. `outcome` names how the
 * work ended (an attribute), a thrown error marks the span failed.
 */
export async function inSpan<T>(
  name: string,
  attributes: Attributes,
  work: () => Promise<T>,
  outcome?: (result: T) => Attributes,
): Promise<T> {
  return trace.getTracer('storefront').startActiveSpan(name, { attributes }, async (span) => {
    try {
      const result = await work();
      if (outcome && span.isRecording()) span.setAttributes(outcome(result));
      return result;
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
      throw error;
    } finally {
      span.end();
    }
  });
}
