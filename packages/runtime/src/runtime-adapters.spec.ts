import { Writable } from 'node:stream';
import { AesGcmSecretCipher } from './secret-cipher';
import { createLogger, maskKey } from './logger';
import { CryptoSecretFactory, Sha256KeyHasher } from './system-adapters';

describe('secrets and keys', () => {
  it('When a secret is encrypted, then only the same key decrypts it and the stored form hides it', () => {
    const cipher = new AesGcmSecretCipher(Buffer.alloc(32, 7));
    const stored = cipher.encrypt('whsec_abc');
    expect(stored).not.toContain('whsec_abc');
    expect(cipher.decrypt(stored)).toBe('whsec_abc');
    expect(cipher.encrypt('whsec_abc')).not.toBe(stored);
    expect(() => new AesGcmSecretCipher(Buffer.alloc(32, 8)).decrypt(stored)).toThrow();
  });

  it('When a stored secret is tampered with, then decrypting it fails', () => {
    const cipher = AesGcmSecretCipher.fromPassphrase('token');
    const [v, n, body, tag] = cipher.encrypt('whsec_abc').split('.');
    const flipped = Buffer.from(body!, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(() => cipher.decrypt([v, n, flipped.toString('base64url'), tag].join('.'))).toThrow();
  });

  it('When keys and secrets are generated, then they have the contract formats', () => {
    const factory = new CryptoSecretFactory();
    const key = factory.apiKey('acme', 'live');
    expect(key).toMatch(/^acme_sk_live_[A-Za-z0-9]{32,}$/);
    expect(factory.apiKey('acme', 'live')).not.toBe(key);
    expect(factory.apiKey('acme', 'test')).toMatch(/^acme_sk_test_[A-Za-z0-9]{32,}$/);
    const secret = factory.webhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const bytes = Buffer.from(secret.slice('whsec_'.length), 'base64').length;
    expect(bytes).toBeGreaterThanOrEqual(24);
    expect(bytes).toBeLessThanOrEqual(64);
  });

  it('When a key is hashed, then the hash is the hex SHA-256 and stable', () => {
    const hasher = new Sha256KeyHasher();
    expect(hasher.hash('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('When a line carries an authorization header or a secret, then the logger redacts it and masks keys', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = createLogger('info', sink);
    const key = 'acme_sk_live_0123456789abcdefghijklmnopqrstuv';
    logger.info(
      { req: { headers: { authorization: `Bearer ${key}` } }, secret: 'whsec_x', key: maskKey(key) },
      'hello',
    );
    const text = lines.join('');
    expect(text).not.toContain(key);
    expect(text).not.toContain('whsec_x');
    expect(text).toContain('hello');
  });

  it('When LOG_FORMAT is pretty, then lines are readable text rather than JSON, still redacted; json stays one object a line', () => {
    const sink = () => {
      const lines: string[] = [];
      const stream = new Writable({
        write(chunk, _enc, done) {
          lines.push(String(chunk));
          done();
        },
      });
      return { lines, stream };
    };
    const pretty = sink();
    const json = sink();
    const key = 'acme_sk_live_0123456789abcdefghijklmnopqrstuv';

    for (const [out, format] of [
      [pretty, 'pretty'],
      [json, 'json'],
    ] as const) {
      createLogger('info', out.stream, format).info({ secret: key, port: 3000 }, 'API listening');
    }

    const text = pretty.lines.join('');
    expect(text).toMatch(/INFO.*API listening/);
    expect(text).toContain('port: 3000');
    expect(text).not.toContain(key);
    expect(() => JSON.parse(text)).toThrow();
    expect(JSON.parse(json.lines.join(''))).toMatchObject({ level: 30, msg: 'API listening', port: 3000 });
  });
});
