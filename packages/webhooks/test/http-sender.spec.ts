import { DnsWebhookUrlPolicy, HttpWebhookSender } from '../src';
import { Receiver } from '@pis/testing/webhooks';

const loopbackAllowed = new DnsWebhookUrlPolicy({ allowPrivate: true, allowInsecure: true });
const publicOnly = new DnsWebhookUrlPolicy({ allowPrivate: false, allowInsecure: true });
const signed = { 'webhook-id': 'evt-1', 'webhook-timestamp': '1763751600', 'webhook-signature': 'v1,abc=' };
const body = '{"type":"table.freed"}';

describe('HttpWebhookSender', () => {
  let receiver: Receiver;
  const sender = new HttpWebhookSender(loopbackAllowed, 300);

  beforeEach(async () => {
    receiver = await Receiver.start();
  });
  afterEach(async () => {
    await receiver.close();
  });
  afterAll(() => sender.close());

  it('When the receiver answers 2xx, then the attempt succeeded and the receiver got the JSON body with the signature headers', async () => {
    receiver.respond = () => ({ status: 202 });

    const result = await sender.send({ url: receiver.url, body, headers: signed });

    expect(result).toEqual({ status: 202, durationMs: expect.any(Number), error: null, retryAfterMs: null });
    const [request] = receiver.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/hooks', body });
    expect(request!.headers).toMatchObject({ 'content-type': 'application/json', ...signed });
  });

  it.each([
    [500, {}, 'the receiver answered 500', null],
    [503, { 'retry-after': '7' }, 'the receiver answered 503', 7_000],
    [429, { 'retry-after': 'soon' }, 'the receiver answered 429', null],
    [302, { location: 'http://127.0.0.1:1/elsewhere' }, 'the receiver answered 302', null],
  ])(
    'When the receiver answers %s, then the attempt failed with that status and Retry-After is read',
    async (status, headers, error, retryAfterMs) => {
      receiver.respond = () => ({ status, headers });

      const result = await sender.send({ url: receiver.url, body, headers: signed });

      expect(result).toMatchObject({ status, error, retryAfterMs });
      expect(receiver.requests).toHaveLength(1);
    },
  );

  it('When the receiver answers after the timeout, then the attempt failed without a status, within the timeout', async () => {
    receiver.respond = () => ({ status: 200, delayMs: 2_000 });

    const result = await sender.send({ url: receiver.url, body, headers: signed });

    expect(result).toMatchObject({ status: null, error: 'no response within 300 ms', retryAfterMs: null });
    expect(result.durationMs).toBeGreaterThanOrEqual(290);
    expect(result.durationMs).toBeLessThan(1_500);
  });

  it('When nothing listens on the port, then the attempt failed with the connection refused', async () => {
    await receiver.close();

    const result = await sender.send({ url: receiver.url, body, headers: signed });

    expect(result).toMatchObject({
      status: null,
      error: 'the receiver refused the connection (ECONNREFUSED)',
    });
  });
});

describe('HttpWebhookSender: the URL policy at connect time', () => {
  let receiver: Receiver;
  const sender = new HttpWebhookSender(publicOnly, 1_000);

  beforeAll(async () => {
    receiver = await Receiver.start();
  });
  afterAll(async () => {
    sender.close();
    await receiver.close();
  });

  it('When a host name resolves to loopback at delivery time (DNS rebinding), then the connection is refused before anything is sent', async () => {
    const url = receiver.url.replace('127.0.0.1', 'localhost');

    const result = await sender.send({ url, body, headers: signed });

    expect(result.status).toBeNull();
    expect(result.error).toMatch(
      /^the URL's host localhost resolves to (127\.0\.0\.1|::1), a loopback address/,
    );
    expect(receiver.requests).toHaveLength(0);
  });

  it('When the URL names a private IP literal, then nothing is sent', async () => {
    const result = await sender.send({ url: receiver.url, body, headers: signed });

    expect(result).toMatchObject({ status: null, durationMs: 0 });
    expect(result.error).toContain("the URL's host 127.0.0.1 is a loopback address");
    expect(receiver.requests).toHaveLength(0);
  });
});
