export { type BotMetrics, createMetrics, type MetricsSources } from './registry.js';
export { type RunningMetricsServer, startMetricsServer } from './server.js';
