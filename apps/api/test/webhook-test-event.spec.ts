import { Webhook } from 'standardwebhooks';
import { createValidator } from '@pis/contract';
import { expectEnvelope } from './support/envelope';
import { Harness } from './support/harness';
import { Receiver } from './support/receiver';
import { P, UTC_MILLIS, type Json } from './support/wire';

/**
 * docs/reference/provider-api.md#test-event: `POST /webhook-endpoint/test` sends one signed
 * `webhook.test` while the request waits. With in-process delivery running, so that a test
 * event that leaked into the outbox or the delivery records would show.
 */
let h: Harness;
let receiver: Receiver;
const validator = createValidator();

beforeAll(async () => {
  receiver = await Receiver.start();
  h = await Harness.start({ WEBHOOK_RETRY_DELAYS_MS: '30,30', WEBHOOK_TIMEOUT_MS: '1000' });
  await h.runtime.start();
});
afterAll(async () => {
  await h?.stop();
  await receiver?.close();
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('When a provider tests its endpoint, then one signed webhook.test arrives at once, verifies with the stock package, and leaves no delivery record', async () => {
  const loc = await h.location({ plan: 'none' });
  const path = `/hooks/${loc.id}`;
  const { secret } = (
    await loc.api
      .put(`${P}/webhook-endpoint`)
      .send({ url: `${receiver.origin}${path}` })
      .expect(200)
  ).body as { secret: string };

  const answer = await loc.api.post(`${P}/webhook-endpoint/test`).expect(200);

  expect(answer.body).toEqual({ delivered: true, status: 204, durationMs: expect.any(Number), error: null });
  const [request, ...more] = receiver.at(path);
  expect(more).toEqual([]);
  const event = new Webhook(secret).verify(request!.body, {
    'webhook-id': String(request!.headers['webhook-id']),
    'webhook-timestamp': String(request!.headers['webhook-timestamp']),
    'webhook-signature': String(request!.headers['webhook-signature']),
  });
  expect(event).toEqual({ type: 'webhook.test', timestamp: expect.stringMatching(UTC_MILLIS), data: {} });
  expect(validator.webhookEventBody(event).ok).toBe(true);
  await pause(300);
  expect((await loc.api.get(`${P}/webhook-deliveries`).expect(200)).body.deliveries).toEqual([]);
  expect(receiver.at(path)).toHaveLength(1);
});

it('When the receiver answers 503, then the answer says not delivered with its status, and the test is never retried', async () => {
  const loc = await h.location({ plan: 'none' });
  const path = `/failing/${loc.id}`;
  receiver.status = (request) => (request.path === path ? 503 : 204);
  await loc.api
    .put(`${P}/webhook-endpoint`)
    .send({ url: `${receiver.origin}${path}` })
    .expect(200);

  const answer = await loc.api.post(`${P}/webhook-endpoint/test`).expect(200);
  await pause(300);

  expect(answer.body).toEqual({
    delivered: false,
    status: 503,
    durationMs: expect.any(Number),
    error: 'the receiver answered 503',
  });
  expect(receiver.at(path)).toHaveLength(1);
  receiver.status = () => 204;
});

it('When nothing listens at the endpoint, then 200 with delivered false, status null and the reason', async () => {
  const loc = await h.location({ plan: 'none' });
  await loc.api.put(`${P}/webhook-endpoint`).send({ url: 'http://127.0.0.1:1/hooks' }).expect(200);

  const answer = await loc.api.post(`${P}/webhook-endpoint/test`).expect(200);

  expect(answer.body).toMatchObject({
    delivered: false,
    status: null,
    error: expect.stringContaining('refused'),
  });
});

it('When tests are sent before and after the first events, then the feed holds no webhook.test and the real events keep sequences 1, 2 as without them', async () => {
  const loc = await h.location({ plan: 'draft', tables: 2 });
  await loc.api
    .put(`${P}/webhook-endpoint`)
    .send({ url: `${receiver.origin}/sequenced/${loc.id}` })
    .expect(200);

  const first = await loc.api.post(`${P}/webhook-endpoint/test`).expect(200);
  const before = (await loc.api.get(`${P}/events`).expect(200)).body;
  await h.operator.post(loc.ops('/floorplan/publish')).expect(200);
  const second = await loc.api.post(`${P}/webhook-endpoint/test`).expect(200);
  await h.walkIn(loc, [loc.tables[0]!]);
  const third = await loc.api.post(`${P}/webhook-endpoint/test`).expect(200);
  const feed = (await loc.api.get(`${P}/events`).expect(200)).body;
  const state = (await loc.api.get(`${P}/tables/state`).expect(200)).body;

  for (const answer of [first, second, third]) expect(answer.body).toMatchObject({ delivered: true });
  expect(before).toEqual({ events: [], nextAfter: 0, hasMore: false, oldestRetainedSequence: 1 });
  expect(feed.events.map((e: Json) => [e['type'], (e['data'] as Json)['locationEventSequence']])).toEqual([
    ['floorplan.published', 1],
    ['table.occupied', 2],
  ]);
  expect(feed).toMatchObject({ nextAfter: 2, hasMore: false, oldestRetainedSequence: 1 });
  expect(state.asOfSequence).toBe(2);
});

it('When no endpoint is registered, then 404 not_found', async () => {
  const loc = await h.location({ plan: 'none' });

  expectEnvelope(await loc.api.post(`${P}/webhook-endpoint/test`), 404, 'not_found');
});
