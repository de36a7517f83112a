import { Webhook } from 'standardwebhooks';
import { Instant, rotateSecret, type WebhookEndpoint } from '@pis/domain';
import { DnsWebhookUrlPolicy, HttpWebhookSender, SignedTestSender } from '../src';
import { Receiver, verify } from '@pis/testing/webhooks';

const OLD_SECRET = `whsec_${Buffer.from('o'.repeat(32)).toString('base64')}`;
const NEW_SECRET = `whsec_${Buffer.from('n'.repeat(32)).toString('base64')}`;

function endpointAt(url: string): WebhookEndpoint {
  const created = Instant.fromEpochMillis(Date.now() - 60_000);
  return {
    id: 'endpoint-1',
    locationId: 'location-1',
    providerId: 'location-1',
    description: null,
    singleton: true,
    url,
    events: ['table.freed'],
    secrets: [{ secret: OLD_SECRET, expiresAt: null }],
    createdAt: created,
    updatedAt: created,
    disabledAt: null,
    disabledReason: null,
    failingSince: null,
  };
}

describe('SignedTestSender', () => {
  let receiver: Receiver;
  const loopback = new HttpWebhookSender(
    new DnsWebhookUrlPolicy({ allowPrivate: true, allowInsecure: true }),
    500,
  );
  const publicOnly = new HttpWebhookSender(
    new DnsWebhookUrlPolicy({ allowPrivate: false, allowInsecure: true }),
    500,
  );

  beforeEach(async () => {
    receiver = await Receiver.start();
  });
  afterEach(async () => {
    await receiver.close();
  });
  afterAll(() => {
    loopback.close();
    publicOnly.close();
  });

  it('When a test is sent, then the receiver gets one webhook.test body with empty data that the stock standardwebhooks verifier accepts', async () => {
    const at = Instant.fromEpochMillis(Date.now());

    const result = await new SignedTestSender(loopback).sendTest(endpointAt(receiver.url), {
      id: 'msg_test_1',
      at,
    });

    expect(result).toEqual({ delivered: true, status: 204, durationMs: expect.any(Number), error: null });
    expect(receiver.requests).toHaveLength(1);
    const [request] = receiver.requests;
    expect(request!.headers['webhook-id']).toBe('msg_test_1');
    expect(request!.headers['webhook-timestamp']).toBe(String(Math.floor(at.toDate().getTime() / 1000)));
    expect(new Webhook(OLD_SECRET).verify(request!.body, request!.headers as Record<string, string>)).toEqual(
      {
        type: 'webhook.test',
        timestamp: at.toIso(),
        data: {},
      },
    );
  });

  it('When the secret was rotated, then the test is signed with both live secrets, and either verifies', async () => {
    const at = Instant.fromEpochMillis(Date.now());
    const rotated = rotateSecret(endpointAt(receiver.url), NEW_SECRET, at);

    await new SignedTestSender(loopback).sendTest(rotated, { id: 'msg_test_2', at });

    const [request] = receiver.requests;
    expect(String(request!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verify(request!, OLD_SECRET)).toMatchObject({ type: 'webhook.test' });
    expect(verify(request!, NEW_SECRET)).toMatchObject({ type: 'webhook.test' });
  });

  it('When the receiver answers 500, then it is not delivered and the status and reason are given, with no retry', async () => {
    receiver.respond = () => ({ status: 500 });

    const result = await new SignedTestSender(loopback).sendTest(endpointAt(receiver.url), {
      id: 'msg_test_3',
      at: Instant.fromEpochMillis(Date.now()),
    });
    await new Promise((resolve) => setTimeout(resolve, 200));

    expect(result).toEqual({
      delivered: false,
      status: 500,
      durationMs: expect.any(Number),
      error: 'the receiver answered 500',
    });
    expect(receiver.requests).toHaveLength(1);
  });

  it('When the URL policy refuses the receiver, then nothing is sent and the status is null with the reason', async () => {
    const result = await new SignedTestSender(publicOnly).sendTest(endpointAt(receiver.url), {
      id: 'msg_test_4',
      at: Instant.fromEpochMillis(Date.now()),
    });

    expect(result).toMatchObject({
      delivered: false,
      status: null,
      error: expect.stringMatching(/loopback|private/),
    });
    expect(receiver.requests).toHaveLength(0);
  });
});
