import { Instant } from '../../src';
import { RandomSecrets, Sha256KeyHasher } from './crypto-adapters';
import { RandomIds, SequentialIds } from './ids';
import { fixedClock, ManualClock } from './manual-clock';
import { ConfigurableUrlPolicy } from './url-policy';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('test doubles of the system ports', () => {
  it('When sequential ids are drawn, then they are UUID-shaped, count up and sort in creation order', () => {
    const ids = new SequentialIds();

    const drawn = Array.from({ length: 17 }, () => ids.uuid());

    expect(drawn[0]).toBe('00000000-0000-4000-8000-000000000001');
    expect(drawn[16]).toBe('00000000-0000-4000-8000-000000000011');
    drawn.forEach((id) => expect(id).toMatch(UUID));
    expect([...drawn].sort()).toEqual(drawn);
  });

  it('When two sequential generators have different prefixes, then their ids never collide', () => {
    expect(new SequentialIds('0000000a').uuid()).not.toBe(new SequentialIds('0000000b').uuid());
    expect(() => new SequentialIds('XYZ')).toThrow('8 lower-case hex digits');
  });

  it('When random ids are drawn, then they are distinct UUIDs', () => {
    const ids = new RandomIds();

    const [a, b] = [ids.uuid(), ids.uuid()];

    expect(a).toMatch(UUID);
    expect(a).not.toBe(b);
  });

  it('When the manual clock advances or is set, then now follows; a fixed clock never moves', () => {
    const clock = new ManualClock('2026-11-21T18:00:00Z');

    clock.advance(1500);
    const afterAdvance = clock.now().toIsoMicros();
    clock.advanceMicros(7n);
    const afterMicros = clock.now().toIsoMicros();
    clock.set('2026-12-24T20:00:00+01:00');

    expect([afterAdvance, afterMicros, clock.now().toIso()]).toEqual([
      '2026-11-21T18:00:01.500000Z',
      '2026-11-21T18:00:01.500007Z',
      '2026-12-24T19:00:00.000Z',
    ]);
    expect(fixedClock('2026-11-21T18:00:00Z').now()).toEqual(Instant.parse('2026-11-21T18:00:00Z'));
    expect(() => new ManualClock('yesterday')).toThrow('not a date-time');
  });

  it('When a key is hashed, then the SHA-256 hex is deterministic', () => {
    const hasher = new Sha256KeyHasher();

    expect(hasher.hash('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('When secrets are made, then API keys pass the authentication shape and webhook secrets are whsec_ base64 of 32 bytes', async () => {
    const secrets = new RandomSecrets();

    const key = secrets.apiKey('acme', 'live');
    const secret = secrets.webhookSecret();

    expect(key).toMatch(/^acme_sk_live_[A-Za-z0-9]{40}$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(secrets.apiKey('acme', 'live')).not.toBe(key);
    expect(secrets.apiKey('acme', 'test')).toMatch(/^acme_sk_test_[A-Za-z0-9]{40}$/);
  });

  it('When the URL policy has rules, then the first matching rule refuses with its reason; allowAll clears them', async () => {
    const policy = new ConfigurableUrlPolicy({ requireHttps: true })
      .refuse('https://blocked.example.com/hook', 'blocked on purpose')
      .refuse(/localhost/, 'loopback');

    const answers = await Promise.all(
      [
        'http://a.example.com',
        'https://blocked.example.com/hook',
        'https://localhost/x',
        'https://ok.example.com',
      ].map((u) => policy.check(u)),
    );
    policy.allowAll();

    expect(answers).toEqual(['the webhook URL must use https', 'blocked on purpose', 'loopback', null]);
    expect(await policy.check('http://localhost')).toBeNull();
  });
});
