import type { RunningServices } from './env';
import type { LoadResult } from './load';
import { ResourceSampler, type ProcessSelector, type ResourceUsage } from './processes';
import type { Bucket } from './report/stats';

export interface ScenarioContext {
  services: RunningServices;
  databaseUrl: string;
  durationS: number;
  connections: number;
}

export interface ScenarioResult {
  name: string;
  /** What the scenario measures, one sentence. */
  description: string;
  load: LoadResult | null;
  resources: Record<string, ResourceUsage>;
  /** Further figures (rates, checks), by name. */
  metrics: Record<string, number | string>;
  timeline: Bucket[];
  notes: string[];
}

/** The processes whose RSS and CPU every scenario reports (plus any `extra` ones). */
export function samplerFor(
  services: RunningServices,
  extra: Record<string, ProcessSelector> = {},
): ResourceSampler {
  return new ResourceSampler({
    api: { group: services.api.child.pid! },
    worker: { group: services.worker.child.pid! },
    postgres: { comm: 'postgres' },
    redis: { comm: 'redis-server' },
    bench: { pid: process.pid },
    ...extra,
  });
}

/** Runs `work` while sampling the services' resources. */
export async function sampled<T>(
  services: RunningServices,
  work: () => Promise<T>,
  extra: Record<string, ProcessSelector> = {},
): Promise<{ value: T; resources: Record<string, ResourceUsage> }> {
  const sampler = samplerFor(services, extra);
  sampler.start();
  try {
    const value = await work();
    return { value, resources: sampler.stop() };
  } catch (error) {
    sampler.stop();
    throw error;
  }
}
