import cluster from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';

const REQUEST = 'pis:metrics-request';
const RESPONSE = 'pis:metrics-response';

interface ScrapeResponse {
  type: typeof RESPONSE;
  id: number;
  text?: string;
  error?: string;
}

const isMessage = <T extends { type: string }>(message: unknown, type: T['type']): message is T =>
  typeof message === 'object' && message !== null && (message as { type?: unknown }).type === type;

/**
 * In the primary of an API cluster (API_WORKERS > 1): answers an API process's scrape with
 * the metrics of every process merged (counters and histograms summed, each gauge by its
 * `aggregator`), so whichever process the connection reached, Prometheus sees the whole API.
 */
export function aggregateClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: unknown) => {
    if (!isMessage<{ type: typeof REQUEST; id: number }>(message, REQUEST)) return;
    const answer = (reply: Omit<ScrapeResponse, 'type' | 'id'>) => {
      if (worker.isConnected()) worker.send({ type: RESPONSE, id: message.id, ...reply });
    };
    aggregator.clusterMetrics().then(
      (text) => answer({ text }),
      (error: unknown) => answer({ error: error instanceof Error ? error.message : String(error) }),
    );
  });
}

/**
 * In an API process of a cluster, first thing: answers the primary's collection requests at
 * once (with nothing until its metrics exist), so that a scrape while this process starts
 * does not wait for it in vain.
 */
export function joinClusterMetrics(): void {
  // Constructing one installs prom-client's answer to the primary's collection requests.
  new AggregatorRegistry();
  AggregatorRegistry.setRegistries([]);
}

/**
 * In an API process of a cluster: lets the primary collect `registry`, and answers a scrape
 * of this process with the whole cluster's text, asked of the primary.
 */
export function clusterScrape(registry: Registry, timeoutMs = 10_000): () => Promise<string> {
  joinClusterMetrics();
  AggregatorRegistry.setRegistries([registry]);
  const waiting = new Map<number, (response: ScrapeResponse) => void>();
  let next = 0;
  process.on('message', (message: unknown) => {
    if (isMessage<ScrapeResponse>(message, RESPONSE)) waiting.get(message.id)?.(message);
  });
  return () =>
    new Promise((resolve, reject) => {
      const id = next++;
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error('the API cluster primary did not answer the metrics request'));
      }, timeoutMs);
      waiting.set(id, (response) => {
        clearTimeout(timer);
        waiting.delete(id);
        if (response.text !== undefined) resolve(response.text);
        else reject(new Error(response.error ?? 'the metrics could not be collected'));
      });
      process.send!({ type: REQUEST, id });
    });
}
