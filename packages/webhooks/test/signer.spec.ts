import { randomBytes } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { signWebhook } from '../src';

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
const body = JSON.stringify({
  type: 'table.freed',
  timestamp: '2026-11-21T19:00:00.000Z',
  data: { locationEventSequence: 7 },
});
const eventId = '0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';

describe('signWebhook (verified by the standardwebhooks package as an independent client)', () => {
  it('When a body is signed with one secret, then the reference verifier accepts it and returns the body', () => {
    const secret = newSecret();
    const now = new Date();

    const headers = signWebhook(eventId, body, [secret], now);

    expect(headers['webhook-id']).toBe(eventId);
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(now.getTime() / 1000)));
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
  });

  it('When a rotation overlap signs with two secrets, then a receiver holding either one verifies, and a stranger does not', () => {
    const [current, previous] = [newSecret(), newSecret()];

    const headers = { ...signWebhook(eventId, body, [current, previous], new Date()) };

    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(() => new Webhook(current).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(previous).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(newSecret()).verify(body, headers)).toThrow(WebhookVerificationError);
  });

  it('When the body is altered after signing, then verification fails', () => {
    const secret = newSecret();
    const headers = { ...signWebhook(eventId, body, [secret], new Date()) };

    expect(() => new Webhook(secret).verify(body.replace('7', '8'), headers)).toThrow(
      WebhookVerificationError,
    );
  });

  it('When an attempt is signed long after the event, then the timestamp is the attempt time, so the verifier accepts it', () => {
    const secret = newSecret();
    const retryTime = new Date(Date.now() + 1_000);

    const headers = { ...signWebhook(eventId, body, [secret], retryTime) };

    expect(Number(headers['webhook-timestamp'])).toBe(Math.floor(retryTime.getTime() / 1000));
    expect(() => new Webhook(secret).verify(body, headers)).not.toThrow();
  });

  it('When bodies of any characters are signed, then each signature is the one the reference signer makes', () => {
    const bodies = [body, JSON.stringify({ guest: 'Zoë Łukasz 李 🎉', note: 'a\u2028b' }), '{}'];
    for (const secret of [newSecret(), newSecret(), randomBytes(24).toString('base64')]) {
      for (const signed of bodies) {
        const at = new Date(1_764_000_000_123);

        const headers = signWebhook(eventId, signed, [secret], at);

        expect(headers['webhook-signature']).toBe(new Webhook(secret).sign(eventId, at, signed));
      }
    }
  });

  it('When there is no secret to sign with, then that broken invariant throws', () => {
    expect(() => signWebhook(eventId, body, [], new Date())).toThrow(/at least one secret/);
  });
});
