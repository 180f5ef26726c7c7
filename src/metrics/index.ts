/** The public surface of src/metrics: Prometheus metrics of this process and GET /metrics. */
export { createMetrics, type MetricSources, type Metrics, type WebhookAttemptOutcome } from './metrics.js';
export { registerMetrics } from './metrics.routes.js';
