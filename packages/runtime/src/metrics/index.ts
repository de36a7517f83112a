export {
  ServiceMetrics,
  type AttemptSample,
  type MetricsOptions,
  type MetricsSources,
  type PoolGaugeSource,
  type RequestSample,
  type Scrape,
} from './service-metrics';
export { aggregateClusterMetrics, joinClusterMetrics } from './cluster-metrics';
