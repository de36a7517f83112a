import { Harness, type TestLocation } from '@pis/api/test/support/harness';
import { P, reservation } from '@pis/api/test/support/wire';
import {
  createProviderClient,
  ProviderApiError,
  readEventFeed,
  type FeedEvent,
  type ProviderClient,
} from '../src';

/**
 * The SDK's resumable feed reader and recovery calls against the real API on PostgreSQL: a
 * provider that kept the last sequence it applied resumes there and sees each later event once.
 */
let h: Harness;

beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h?.stop();
});

const sdkFor = (loc: TestLocation): ProviderClient =>
  createProviderClient({ baseUrl: h.api.baseUrl, apiKey: loc.key });

async function collect(feed: AsyncIterable<FeedEvent>): Promise<FeedEvent[]> {
  const events: FeedEvent[] = [];
  for await (const event of feed) events.push(event);
  return events;
}

async function seatTwice(loc: TestLocation): Promise<void> {
  for (const table of loc.tables.slice(0, 2)) {
    await loc.api
      .post(`${P}/reservations`)
      .send(reservation({ status: 'seated', tableIds: [table] }))
      .expect(201);
  }
}

it('When the reader stops part-way and resumes from the last sequence it applied, then it sees every event exactly once, in order, across pages', async () => {
  const loc = await h.location({ tables: 3 });
  await seatTwice(loc);
  const sdk = sdkFor(loc);

  const all = await collect(readEventFeed(sdk, { limit: 1 }));
  const firstTwo: FeedEvent[] = [];
  for await (const event of readEventFeed(sdk, { limit: 2 })) {
    firstTwo.push(event);
    if (firstTwo.length === 2) break;
  }
  const rest = await collect(readEventFeed(sdk, { after: firstTwo[1]!.data.locationEventSequence }));

  expect(all.map((e) => e.data.locationEventSequence)).toEqual([1, 2, 3]);
  expect(all.map((e) => e.type)).toEqual(['floorplan.published', 'table.occupied', 'table.occupied']);
  expect([...firstTwo, ...rest]).toEqual(all);
});

it('When the reader follows, then it yields events committed after it caught up, and stops on abort', async () => {
  const loc = await h.location({ tables: 3 });
  const sdk = sdkFor(loc);
  const abort = new AbortController();
  const seen: FeedEvent[] = [];
  const reading = (async () => {
    for await (const event of readEventFeed(sdk, {
      follow: true,
      pollMs: 20,
      signal: abort.signal,
      types: ['table.occupied'],
    })) {
      seen.push(event);
      if (seen.length === 2) abort.abort();
    }
  })();

  await seatTwice(loc);
  await reading;

  expect(seen.map((e) => [e.type, e.data.locationEventSequence])).toEqual([
    ['table.occupied', 2],
    ['table.occupied', 3],
  ]);
});

it('When the state and recover are asked for, then they answer typed; recover without an endpoint rejects with not_found', async () => {
  const loc = await h.location({ tables: 2 });
  await seatTwice(loc);
  const sdk = sdkFor(loc);

  const state = await sdk.getTableState();
  const error = await sdk.recoverWebhooks({ afterSequence: 0 }).catch((e: unknown) => e);

  expect(state.asOfSequence).toBe(3);
  expect(state.tables.map((t) => t.status)).toEqual(['occupied', 'occupied']);
  expect(error).toBeInstanceOf(ProviderApiError);
  expect((error as ProviderApiError).code).toBe('not_found');
});
