import { registerWebhookEndpoint, sendTestWebhook } from '../../src';
import { createInMemoryDeps } from '../in-memory/create-in-memory-deps';
import { givenLocation } from '../scenarios/published-location';
import { expectOk } from './use-case-world';

describe('sendTestWebhook (docs/reference/provider-api.md#test-event)', () => {
  it('When the location has an endpoint, then one test message goes to it with a fresh id at the clock time, and nothing is stored', async () => {
    const { deps, store, clock, webhookTests } = createInMemoryDeps();
    const { id: locationId } = await givenLocation(deps);
    const endpoint = expectOk(
      await registerWebhookEndpoint(deps, { locationId, url: 'https://p.example.com/h', events: null }),
    );
    webhookTests.answer = {
      delivered: false,
      status: 500,
      durationMs: 3,
      error: 'the receiver answered 500',
    };
    const eventsBefore = store.events(locationId).length;

    const first = expectOk(await sendTestWebhook(deps, { locationId }));
    expectOk(await sendTestWebhook(deps, { locationId }));

    expect(first).toEqual(webhookTests.answer);
    expect(webhookTests.sent.map((s) => s.endpoint)).toEqual([endpoint, endpoint]);
    expect(webhookTests.sent[0]!.message).toEqual({
      id: expect.stringMatching(/^msg_test_/),
      at: clock.now(),
    });
    expect(webhookTests.sent[0]!.message.id).not.toBe(webhookTests.sent[1]!.message.id);
    expect(store.events(locationId)).toHaveLength(eventsBefore);
  });

  it('When the location has no endpoint, then not_found and nothing is sent', async () => {
    const { deps, webhookTests } = createInMemoryDeps();
    const { id: locationId } = await givenLocation(deps);

    expect(await sendTestWebhook(deps, { locationId })).toMatchObject({ ok: false, code: 'not_found' });
    expect(webhookTests.sent).toEqual([]);
  });
});
