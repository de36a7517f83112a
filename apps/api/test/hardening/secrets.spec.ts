import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { Request, Response as ExpressResponse } from 'express';
import type { Response } from 'supertest';
import { backofficeAuth } from '@pis/http';
import { AesGcmSecretCipher, createLogger, randomBase62 } from '@pis/runtime';
import { expectEnvelope } from '../support/envelope';
import { Harness, type TestLocation } from '../support/harness';
import { Receiver } from '../support/receiver';
import { BACKOFFICE_TOKEN } from '../support/test-api';
import { B, P, reservation } from '../support/wire';

// The module object itself (not a namespace copy), so that a spy on it is what
// backoffice-auth.ts calls.
const crypto: typeof import('node:crypto') = require('node:crypto');

/**
 * Secrets: near-miss credentials are refused, the backoffice token is compared in
 * constant time, keys and webhook secrets are not at rest in the database (decision 0004),
 * and no key, token or webhook secret reaches a log line (nor does the end-of-run scanner
 * let one through).
 */
let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h?.stop();
});

const LIVE = '_sk_live_';
const sha256 = (text: string) => crypto.createHash('sha256').update(text, 'utf8').digest();

/** The part of a key after `<brand>_sk_live_`. */
const secretOf = (key: string) => key.slice(key.indexOf(LIVE) + LIVE.length);
/** Another base62 character at `index` of `text`. */
const changeAt = (text: string, index: number) =>
  text.slice(0, index) + (text[index] === 'A' ? 'B' : 'A') + text.slice(index + 1);
const swapCase = (c: string) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase());

/** Every `length`-character window of `text`: a leak of any of them is a leak of the secret. */
function windows(text: string, length: number): string[] {
  return Array.from({ length: Math.max(0, text.length - length + 1) }, (_, i) => text.slice(i, i + length));
}

/** Keys that differ from a live key in one of the ways a mistake or a guess would. */
function nearMissKeys(key: string): Array<[string, string]> {
  const live = key.indexOf(LIVE) + LIVE.length;
  const secret = secretOf(key);
  const letter = secret.search(/[A-Za-z]/);
  return [
    ['the first character of the key changed', changeAt(key, 0)],
    ['the first character of the secret part changed', changeAt(key, live)],
    ['a middle character changed', changeAt(key, live + Math.floor(secret.length / 2))],
    ['the last character changed', changeAt(key, key.length - 1)],
    ['the last character cut off', key.slice(0, -1)],
    ['cut to 32 characters after the prefix', key.slice(0, live + 32)],
    ['one character added', `${key}A`],
    ['the key twice', `${key}${secret}`],
    ['another brand prefix', `other${LIVE}${secret}`],
    ['the test-mode prefix', key.replace(LIVE, '_sk_test_')],
    [
      'one letter in another case',
      key.slice(0, live + letter) + swapCase(secret[letter]!) + secret.slice(letter + 1),
    ],
    ['the secret part upper-cased', key.slice(0, live) + secret.toUpperCase()],
    ['the prefix upper-cased', key.slice(0, live).toUpperCase() + secret],
    ['only the secret part', secret],
    ['only the display prefix', key.slice(0, live + 4)],
  ];
}

/** Authorization headers that carry the right key in a form that is not `Bearer <key>`. */
function wrongForms(key: string): Array<[string, string]> {
  return [
    ['the Basic scheme (key as user)', `Basic ${Buffer.from(`${key}:`).toString('base64')}`],
    ['the Basic scheme (bare key)', `Basic ${key}`],
    ['another scheme', `Token ${key}`],
    ['no scheme', key],
    ['a tab after the scheme', `Bearer\t${key}`],
    ['the key in quotes', `Bearer "${key}"`],
    ['a second word after the key', `Bearer ${key} extra`],
    ['two keys', `Bearer ${key}, Bearer ${key}`],
    ['no space after the scheme', `Bearer${key}`],
    ['an empty value', ''],
  ];
}

function expectUnauthorized(res: Response): void {
  expectEnvelope(res, 401, 'unauthorized');
  expect(res.headers['www-authenticate']).toBe('Bearer');
}

describe('Near-miss API keys', () => {
  let loc: TestLocation;
  beforeAll(async () => {
    loc = await h.location();
  });

  it('When the live key is sent, then it is accepted (the near misses below differ from it only as named)', async () => {
    await loc.api.get(`${P}/floorplan`).expect(200);
  });

  it('When each near miss of a live key is sent, then every one is 401 unauthorized with WWW-Authenticate: Bearer', async () => {
    for (const [what, forged] of nearMissKeys(loc.key)) {
      const res = await h.client(forged).get(`${P}/floorplan`);
      expect({ what, status: res.status }).toEqual({ what, status: 401 });
      expectUnauthorized(res);
    }
  });

  it('When the live key comes in another header form than Bearer, then every one is 401', async () => {
    for (const [what, header] of wrongForms(loc.key)) {
      const res = await h.anonymous.get(`${P}/floorplan`).set('Authorization', header);
      expect({ what, status: res.status }).toEqual({ what, status: 401 });
      expectUnauthorized(res);
    }
  });

  it('When the scheme is lower- or upper-case or followed by several spaces, then the live key is accepted (RFC 9110 11.1, RFC 6750 2.1) and its near misses are still refused', async () => {
    // The scheme name is case-insensitive and Bearer credentials follow 1*SP: refusing these
    // would break conforming clients, not keep anyone out.
    for (const scheme of ['bearer ', 'BEARER ', 'Bearer   ']) {
      await h.anonymous.get(`${P}/floorplan`).set('Authorization', `${scheme}${loc.key}`).expect(200);
      for (const [what, forged] of nearMissKeys(loc.key).slice(0, 5)) {
        const res = await h.anonymous.get(`${P}/floorplan`).set('Authorization', `${scheme}${forged}`);
        expect({ scheme, what, status: res.status }).toEqual({ scheme, what, status: 401 });
        expectUnauthorized(res);
      }
    }
  });

  it('When a key is revoked, then it is refused on every operation while a new key of the location works', async () => {
    const own = await h.location();
    const spare = await h.operator.post(own.ops('/api-keys')).expect(201);
    await own.api.get(`${P}/floorplan`).expect(200);

    await h.operator.delete(own.ops(`/api-keys/${own.keyId}`)).expect(204);

    expectUnauthorized(await own.api.get(`${P}/floorplan`));
    expectUnauthorized(await own.api.post(`${P}/reservations`).send(reservation()));
    expectUnauthorized(
      await own.api.put(`${P}/webhook-endpoint`).send({ url: 'https://hooks.example.test/x' }),
    );
    await h.client(spare.body.key).get(`${P}/floorplan`).expect(200);
  });

  it("When another location's path is used to revoke a key, then 404 not_found and the key keeps working", async () => {
    const other = await h.location({ plan: 'none' });

    expectEnvelope(await h.operator.delete(other.ops(`/api-keys/${loc.keyId}`)), 404, 'not_found');

    await loc.api.get(`${P}/floorplan`).expect(200);
  });

  it('When the location of a key has been deleted (with its keys, in the database), then the key is refused', async () => {
    const gone = await h.location({ plan: 'none' });
    await h.db.dataSource.transaction(async (tx) => {
      await tx.query('DELETE FROM api_keys WHERE location_id = $1', [gone.id]);
      await tx.query('DELETE FROM floor_plans WHERE location_id = $1', [gone.id]);
      await tx.query('DELETE FROM locations WHERE id = $1', [gone.id]);
    });

    expectUnauthorized(await gone.api.get(`${P}/webhook-deliveries`));
  });
});

describe('The backoffice token', () => {
  async function locationCount(): Promise<number> {
    const [row] = await h.db.dataSource.query('SELECT count(*)::int AS n FROM locations');
    return row.n;
  }

  it('When near misses of the backoffice token are sent, then every one is 401 with WWW-Authenticate: Bearer and nothing is created', async () => {
    const token = BACKOFFICE_TOKEN;
    const loc = await h.location({ plan: 'none' });
    const misses: Array<[string, string]> = [
      ['the first character changed', changeAt(token, 0)],
      ['a middle character changed', changeAt(token, Math.floor(token.length / 2))],
      ['the last character changed', changeAt(token, token.length - 1)],
      ['cut by one', token.slice(0, -1)],
      ['one character added', `${token}0`],
      ['one character long', token[0]!],
      ['4 KiB long', token.repeat(200).slice(0, 4096)],
      ['upper-cased', token.toUpperCase()],
      ['a provider key', loc.key],
    ];
    const before = await locationCount();

    for (const [what, forged] of misses) {
      const res = await h.client(forged).post(`${B}/locations`).send({ name: 'Forged', brand: 'forged' });
      expect({ what, status: res.status }).toEqual({ what, status: 401 });
      expectUnauthorized(res);
    }
    for (const [what, header] of wrongForms(token)) {
      const res = await h.anonymous
        .post(`${B}/locations`)
        .set('Authorization', header)
        .send({ name: 'F', brand: 'ff' });
      expect({ what, status: res.status }).toEqual({ what, status: 401 });
      expectUnauthorized(res);
    }

    expect(await locationCount()).toBe(before);
    await h.operator.post(`${B}/locations`).send({ name: 'Real', brand: 'real' }).expect(201);
  });

  it('When any token is presented, then it is compared with timingSafeEqual over two 32-byte SHA-256 digests, whatever its length', () => {
    // Hashing both sides first gives equal lengths, so the comparison cannot end early on a
    // length mismatch or at the first differing character of the token itself.
    const spy = jest.spyOn(crypto, 'timingSafeEqual');
    try {
      const check = backofficeAuth(BACKOFFICE_TOKEN);
      const presented = [
        'x',
        BACKOFFICE_TOKEN.slice(0, -1),
        changeAt(BACKOFFICE_TOKEN, 0),
        'y'.repeat(4096),
        BACKOFFICE_TOKEN,
      ];
      const outcomes = presented.map((token) => {
        spy.mockClear();
        const next = jest.fn();
        const req = {
          get: (name: string) => (name.toLowerCase() === 'authorization' ? `Bearer ${token}` : undefined),
        };
        check(req as unknown as Request, {} as ExpressResponse, next);

        expect(spy).toHaveBeenCalledTimes(1);
        const [a, b] = spy.mock.calls[0]! as unknown as [Buffer, Buffer];
        expect([a.length, b.length]).toEqual([32, 32]);
        expect(a.equals(sha256(token))).toBe(true);
        expect(b.equals(sha256(BACKOFFICE_TOKEN))).toBe(true);
        const error = next.mock.calls[0]?.[0] as { status?: number; code?: string } | undefined;
        return error ? `${error.status} ${error.code}` : 'passed';
      });

      expect(outcomes).toEqual([
        '401 unauthorized',
        '401 unauthorized',
        '401 unauthorized',
        '401 unauthorized',
        'passed',
      ]);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('Secrets at rest', () => {
  /** Every row of every table of the schema, as text. */
  async function wholeDatabase(): Promise<string> {
    const tables: Array<{ name: string }> = await h.db.dataSource.query(
      "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'",
    );
    const texts: string[] = [];
    for (const { name } of tables) {
      const rows: Array<{ t: string }> = await h.db.dataSource.query(`SELECT t::text AS t FROM "${name}" t`);
      texts.push(...rows.map((r) => r.t));
    }
    return texts.join('\n');
  }

  it('When keys are issued, then the api_keys rows hold only their SHA-256 and the display prefix, and no table holds more of the secret part', async () => {
    const loc = await h.location({ plan: 'none' });
    const second = (await h.operator.post(loc.ops('/api-keys')).expect(201)).body as {
      id: string;
      key: string;
    };
    const keys = [
      { id: loc.keyId, key: loc.key },
      { id: second.id, key: second.key },
    ];

    const all = await wholeDatabase();
    for (const { id, key } of keys) {
      const [row] = await h.db.dataSource.query('SELECT * FROM api_keys WHERE id = $1', [id]);
      const visible = key.indexOf(LIVE) + LIVE.length + 4;
      expect(row.key_hash).toBe(sha256(key).toString('hex'));
      expect(row.prefix).toBe(key.slice(0, visible));
      // No column holds 5 characters of the secret part in a row: the prefix shows 4.
      const rowText = JSON.stringify(row);
      expect(windows(secretOf(key), 5).filter((w) => rowText.includes(w))).toEqual([]);
      expect(all).not.toContain(key.slice(0, visible + 1));
      expect(windows(secretOf(key), 12).filter((w) => all.includes(w))).toEqual([]);
    }
  });

  it('When an endpoint is registered and its secret rotated, then the database holds both secrets only AES-GCM encrypted under the secrets key', async () => {
    const loc = await h.location({ plan: 'none' });
    const registered = await loc.api
      .put(`${P}/webhook-endpoint`)
      .send({ url: 'https://hooks.example.test/at-rest' })
      .expect(200);
    const rotated = await loc.api.post(`${P}/webhook-endpoint/rotate-secret`).expect(200);
    const secrets = [registered.body.secret as string, rotated.body.secret as string];
    expect(secrets.every((s) => /^whsec_[A-Za-z0-9+/=]{32,}$/.test(s))).toBe(true);

    const [row] = await h.db.dataSource.query('SELECT * FROM webhook_endpoints WHERE location_id = $1', [
      loc.id,
    ]);
    const all = await wholeDatabase();

    expect(all).not.toContain('whsec_');
    for (const secret of secrets) {
      expect(windows(secret.slice('whsec_'.length), 12).filter((w) => all.includes(w))).toEqual([]);
    }
    const stored = (row.secrets as Array<{ secret: string }>).map((s) => s.secret);
    expect(stored.every((s) => /^v1\.[\w-]+\.[\w-]+\.[\w-]+$/.test(s))).toBe(true);
    // Decision 0004: without SECRETS_KEY and with DATABASE_URL, the key is derived from the token.
    const cipher = AesGcmSecretCipher.fromPassphrase(BACKOFFICE_TOKEN);
    expect(stored.map((s) => cipher.decrypt(s)).sort()).toEqual([...secrets].sort());
  });
});

describe('Logs', () => {
  const OPERATOR_TOKEN = `op-${randomBase62(32)}`;
  const lines: string[] = [];
  let logged: Harness;
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await Receiver.start();
    const sink = new Writable({
      write(data, _enc, done) {
        lines.push(...String(data).split('\n').filter(Boolean));
        done();
      },
    });
    // Debug level: every line any part of the API writes, requests and webhook attempts included.
    logged = await Harness.beside(
      h,
      { BACKOFFICE_TOKEN: OPERATOR_TOKEN, SECRETS_KEY: crypto.randomBytes(32).toString('base64') },
      createLogger('debug', sink),
    );
    await logged.runtime.start();
  });
  afterAll(async () => {
    await logged?.stop();
    await receiver?.close();
  });

  it('When keys, near misses, a revoked key, the backoffice token, endpoint registration and rotation go through the API, then no log line holds any of them', async () => {
    const loc = await h.location({ plan: 'draft' });
    const operator = logged.client(OPERATOR_TOKEN);
    const api = logged.client(loc.key);
    const spare = (await operator.post(loc.ops('/api-keys')).expect(201)).body.key as string;
    const secrets: string[] = [];

    await api.get(`${P}/floorplan`).set('X-Request-Id', 'log-valid');
    await api.post(`${P}/reservations`).send(reservation()).expect(201);
    for (const [, forged] of nearMissKeys(loc.key))
      await logged.client(forged).get(`${P}/floorplan`).expect(401);
    for (const [, header] of wrongForms(loc.key)) {
      await logged.anonymous.get(`${P}/floorplan`).set('Authorization', header).expect(401);
    }
    // A key in the query string is no credential, but a confused client may still send one.
    await logged.anonymous.get(`${P}/floorplan?api_key=${loc.key}`).expect(401);
    await logged.anonymous.get(`${P}/reservations/${spare}?token=${OPERATOR_TOKEN}`);
    await logged.client(changeAt(OPERATOR_TOKEN, 5)).get(loc.ops('/orders')).expect(401);
    await operator.get(loc.ops('/orders')).expect(200);
    const path = `/hooks/${loc.id}`;
    secrets.push(
      (
        await api
          .put(`${P}/webhook-endpoint`)
          .send({ url: `${receiver.origin}${path}` })
          .expect(200)
      ).body.secret,
    );
    secrets.push((await api.post(`${P}/webhook-endpoint/rotate-secret`).expect(200)).body.secret);
    await api.get(`${P}/webhook-endpoint`).expect(200);
    // A delivery signed with both secrets, so that the attempt is logged too.
    await operator.post(loc.ops('/floorplan/publish')).expect(200);
    await receiver.until(() => (receiver.at(path).length > 0 ? true : undefined));
    await receiver.until(
      () => (lines.some((l) => l.includes('"webhook attempt"')) ? true : undefined),
      5_000,
      'the attempt log line',
    );
    await operator.delete(loc.ops(`/api-keys/${loc.keyId}`)).expect(204);
    await api.get(`${P}/floorplan`).expect(401);
    // A failure that is logged whole: the request's credential must not be in it either.
    await logged
      .client(spare)
      .post(`${P}/reservations`)
      .set('Content-Type', 'application/json')
      .send('{"a":');

    const text = lines.join('\n');
    expect(lines.length).toBeGreaterThan(20);
    // The requests that carried credentials in their URLs were logged, with those parts replaced.
    expect(text).toContain(`${P}/floorplan?api_key=[redacted]`);
    expect(text).toContain(`${P}/reservations/[redacted]?token=[redacted]`);
    const leaks: string[] = [];
    for (const key of [loc.key, spare]) {
      const visible = key.indexOf(LIVE) + LIVE.length + 4;
      if (text.includes(key.slice(0, visible + 1))) leaks.push(`key prefix ${key.slice(0, visible + 1)}`);
      leaks.push(...windows(secretOf(key), 12).filter((w) => text.includes(w)));
    }
    for (const secret of secrets) {
      if (text.includes('whsec_')) leaks.push('whsec_');
      leaks.push(...windows(secret.slice('whsec_'.length), 12).filter((w) => text.includes(w)));
    }
    leaks.push(...windows(OPERATOR_TOKEN, 12).filter((w) => text.includes(w)));
    expect(leaks).toEqual([]);
  });

  describe('The end-of-run scanner (tools/scripts/scan-test-logs.mjs)', () => {
    const scanner = join(__dirname, '../../../../tools/scripts/scan-test-logs.mjs');
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'pis-scan-'));
    });
    afterEach(() => {
      rmSync(dir, { recursive: true, force: true });
    });

    /** The lines this file's API wrote, repeated up to the scanner's minimum of 1000. */
    function realLines(): string[] {
      expect(lines.length).toBeGreaterThan(0);
      return Array.from({ length: 1000 }, (_, i) => lines[i % lines.length]!);
    }

    const scan = () => spawnSync(process.execPath, [scanner, dir], { encoding: 'utf8' });

    it('When it reads the lines the API wrote above, then it passes them', () => {
      writeFileSync(join(dir, '1.ndjson'), realLines().join('\n'));

      const result = scan();

      expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
    });

    it.each([
      ['an API key', () => `"url":"/api/provider/v1/floorplan?api_key=test${LIVE}${randomBase62(40)}"`],
      ['a webhook secret', () => `"secret":"whsec_${crypto.randomBytes(32).toString('base64')}"`],
      ['a bearer credential', () => `"authorization":"Bearer ${randomBase62(24)}"`],
      ['a backoffice token of the tests', () => `"token":"${BACKOFFICE_TOKEN}"`],
    ])('When one line among them holds %s, then it fails and names the file and line', (what, leak) => {
      const planted = realLines();
      planted[500] = `{"level":30,"msg":"request completed",${leak()}}`;
      writeFileSync(join(dir, '2.ndjson'), planted.join('\n'));

      const result = scan();

      expect(result.status).toBe(1);
      expect(result.stderr).toContain(`2.ndjson:501: ${what}`);
    });
  });
});
