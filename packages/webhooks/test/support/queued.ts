import { QueuedDelivery, type QueuedDeliveryOptions } from '../../src';
import { TEST_SETTINGS } from './delivery-behaviour';
import { openHarness, type Harness } from './harness';
import { Receiver } from '@pis/testing/webhooks';
import { dropPrefix, REDIS_URL, testPrefix } from '@pis/testing/webhooks';
import { testLogger } from './test-logger';

/**
 * A worker deployment on the harness's database: the test's Redis, the test settings, 8 slots
 * and a 100 ms poll unless `options` say otherwise. Not started.
 */
export function queuedDelivery(
  h: Harness,
  options: Partial<QueuedDeliveryOptions> & { prefix: string },
): QueuedDelivery {
  return new QueuedDelivery({
    store: h.persistence.pipeline,
    endpoints: h.persistence.queries.webhooks,
    logger: testLogger,
    settings: TEST_SETTINGS,
    redis: { url: REDIS_URL },
    concurrency: 8,
    pollMs: 100,
    ...options,
  });
}

export interface PipelineFixture {
  h: Harness;
  receiver: Receiver;
  /** This describe's Redis key prefix, dropped after it. */
  prefix: string;
}

/** A harness and a receiver for the describe it is called in, closed (and its prefix dropped) after it. */
export function usePipelineFixture(name: string): PipelineFixture {
  const fixture = { prefix: testPrefix(name) } as PipelineFixture;
  beforeAll(async () => {
    fixture.h = await openHarness();
    fixture.receiver = await Receiver.start();
  });
  afterAll(async () => {
    await fixture.receiver?.close();
    await dropPrefix(fixture.prefix);
    await fixture.h?.close();
  });
  return fixture;
}

/** Holds every request at the receiver (no answer) until `release()`, which answers them 204, as every later one. */
export function holdRequests(receiver: Receiver): { release(): void } {
  const held: (() => void)[] = [];
  let holding = true;
  receiver.respond = () =>
    holding ? new Promise((resolve) => held.push(() => resolve({ status: 204 }))) : { status: 204 };
  return {
    release() {
      holding = false;
      for (const release of held.splice(0)) release();
    },
  };
}
