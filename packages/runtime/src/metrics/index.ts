export {
  ServiceMetrics,
  type AttemptSample,
  type MetricsOptions,
  type MetricsSources,
  type PoolGaugeSource,
  type RequestSample,
  type Scrape,
  type SlotSample,
} from './service-metrics';
export { aggregateClusterMetrics, joinClusterMetrics } from './cluster-metrics';
