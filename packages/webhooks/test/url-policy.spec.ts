import { DnsWebhookUrlPolicy, type Resolver } from '../src';

/** A resolver that answers from a table, as DNS would; unknown names do not resolve. */
const stubResolver =
  (table: Record<string, string[]>): Resolver =>
  async (hostname) => {
    const addresses = table[hostname];
    if (!addresses)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses;
  };

const DNS = stubResolver({
  'hooks.provider.example': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  'internal.provider.example': ['10.1.2.3'],
  'split.provider.example': ['93.184.216.34', '192.168.1.20'],
  'metadata.google.internal': ['169.254.169.254'],
  'v6-loopback.example': ['::1'],
  'nothing.example': [],
});

const strict = new DnsWebhookUrlPolicy({ allowPrivate: false, allowInsecure: false }, DNS);
const privateAllowed = new DnsWebhookUrlPolicy({ allowPrivate: true, allowInsecure: false }, DNS);
const insecureAllowed = new DnsWebhookUrlPolicy({ allowPrivate: false, allowInsecure: true }, DNS);

describe('DnsWebhookUrlPolicy: address ranges of IP-literal hosts', () => {
  it.each([
    ['loopback', 'https://127.0.0.1/hooks', 'a loopback address'],
    ['loopback anywhere in 127/8', 'https://127.200.0.9/hooks', 'a loopback address'],
    ['10/8', 'https://10.0.0.1/hooks', 'a private address'],
    ['172.16/12 (low end)', 'https://172.16.0.1/hooks', 'a private address'],
    ['172.16/12 (high end)', 'https://172.31.255.254/hooks', 'a private address'],
    ['192.168/16', 'https://192.168.0.10/hooks', 'a private address'],
    ['CGNAT 100.64/10', 'https://100.64.0.1/hooks', 'a carrier-grade NAT (shared) address'],
    ['link-local 169.254/16', 'https://169.254.10.10/hooks', 'a link-local address'],
    ['cloud metadata', 'https://169.254.169.254/latest/meta-data', 'a cloud metadata address'],
    ['AWS metadata over IPv6', 'https://[fd00:ec2::254]/', 'a cloud metadata address'],
    ['unspecified 0.0.0.0', 'https://0.0.0.0/hooks', 'an unspecified address'],
    ['multicast', 'https://224.0.0.1/hooks', 'a multicast address'],
    ['IPv6 loopback ::1', 'https://[::1]/hooks', 'a loopback address'],
    ['IPv6 unique-local fc00::/7 (fc)', 'https://[fc00::1]/hooks', 'a unique-local address'],
    ['IPv6 unique-local fc00::/7 (fd)', 'https://[fd12:3456::1]/hooks', 'a unique-local address'],
    ['IPv6 link-local fe80::/10', 'https://[fe80::1]/hooks', 'a link-local address'],
    ['IPv6 unspecified', 'https://[::]/hooks', 'an unspecified address'],
    ['IPv4-mapped IPv6 loopback', 'https://[::ffff:127.0.0.1]/hooks', 'a loopback address'],
    ['IPv4-mapped IPv6 private', 'https://[::ffff:10.0.0.1]/hooks', 'a private address'],
    ['IPv4-compatible IPv6', 'https://[::7f00:1]/hooks', 'a reserved or special-purpose address'],
    [
      'NAT64 embedding a private address',
      'https://[64:ff9b::a00:1]/hooks',
      'a reserved or special-purpose address',
    ],
    ['a hexadecimal IPv4 spelling of loopback', 'https://0x7f000001/hooks', 'a loopback address'],
    ['a shortened IPv4 spelling of loopback', 'https://127.1/hooks', 'a loopback address'],
  ])('When the host is %s, then the URL is refused as %s', async (_case, url, what) => {
    const reason = await strict.check(url);

    expect(reason).toMatch(/^the URL's host \S+ is /);
    expect(reason).toContain(what);
  });

  it.each([
    ['a public IPv4 address', 'https://93.184.216.34/hooks'],
    ['a public IPv6 address', 'https://[2606:2800:220:1:248:1893:25c8:1946]/hooks'],
    ['just outside 172.16/12', 'https://172.32.0.1/hooks'],
    ['just outside CGNAT', 'https://100.128.0.1/hooks'],
  ])('When the host is %s, then the URL is accepted', async (_case, url) => {
    expect(await strict.check(url)).toBeNull();
  });
});

describe('DnsWebhookUrlPolicy: host names, judged on every address they resolve to', () => {
  it.each([
    ['a public name (stubbed resolver)', 'https://hooks.provider.example/webhooks', null],
    [
      'a name resolving to 10/8',
      'https://internal.provider.example/hooks',
      "the URL's host internal.provider.example resolves to 10.1.2.3, a private address; webhooks are only sent to public addresses",
    ],
    [
      'a name with one public and one private address',
      'https://split.provider.example/hooks',
      "the URL's host split.provider.example resolves to 192.168.1.20, a private address; webhooks are only sent to public addresses",
    ],
    [
      'a name resolving to the metadata address',
      'https://metadata.google.internal/computeMetadata/v1/',
      "the URL's host metadata.google.internal resolves to 169.254.169.254, a cloud metadata address; webhooks are never sent there",
    ],
    [
      'a name resolving to ::1',
      'https://v6-loopback.example/hooks',
      "the URL's host v6-loopback.example resolves to ::1, a loopback address; webhooks are only sent to public addresses",
    ],
    [
      'a name that does not resolve',
      'https://unknown.example/hooks',
      "the URL's host unknown.example could not be resolved",
    ],
    [
      'a name without addresses',
      'https://nothing.example/hooks',
      "the URL's host nothing.example could not be resolved",
    ],
  ])('When the URL names %s, then the answer is %p', async (_case, url, expected) => {
    expect(await strict.check(url)).toBe(expected);
  });
});

describe('DnsWebhookUrlPolicy: scheme and shape', () => {
  it.each([
    ['http, by default', 'the URL must use https', strict, 'http://hooks.provider.example/hooks'],
    ['ftp', 'the URL must use https', strict, 'ftp://hooks.provider.example/hooks'],
    [
      'ftp, with insecure URLs allowed',
      'the URL must use https or http',
      insecureAllowed,
      'ftp://hooks.provider.example/x',
    ],
    ['a relative URL', 'the URL is not a valid absolute URL', strict, '/hooks'],
    ['not a URL at all', 'the URL is not a valid absolute URL', strict, 'hooks please'],
    [
      'carrying credentials',
      'the URL must not carry a user name or password',
      strict,
      'https://user:pass@hooks.provider.example/hooks',
    ],
  ])('When the URL is %s, then it is refused: %s', async (_case, reason, policy, url) => {
    expect(await policy.check(url)).toBe(reason);
  });

  it('When insecure URLs are allowed, then a public http URL is accepted, and a private one still refused', async () => {
    expect(await insecureAllowed.check('http://hooks.provider.example/hooks')).toBeNull();
    expect(await insecureAllowed.check('http://10.0.0.1/hooks')).toContain('a private address');
  });
});

describe('DnsWebhookUrlPolicy: WEBHOOK_ALLOW_PRIVATE_URLS', () => {
  it.each([
    'https://127.0.0.1:8443/hooks',
    'https://10.0.0.1/hooks',
    'https://[::1]/hooks',
    'https://[fe80::1]/hooks',
    'https://internal.provider.example/hooks',
  ])('When private URLs are allowed, then %s is accepted', async (url) => {
    expect(await privateAllowed.check(url)).toBeNull();
  });

  it.each([
    ['the metadata address', 'https://169.254.169.254/', 'a cloud metadata address'],
    ['a name resolving to it', 'https://metadata.google.internal/', 'a cloud metadata address'],
    ['the unspecified address', 'https://0.0.0.0/', 'an unspecified address'],
    ['a multicast address', 'https://[ff02::1]/', 'a multicast address'],
  ])('When private URLs are allowed, then %s is still refused', async (_case, url, what) => {
    const reason = await privateAllowed.check(url);

    expect(reason).toContain(what);
    expect(reason).toContain('webhooks are never sent there');
  });

  it('When private URLs are allowed, then http still needs WEBHOOK_ALLOW_INSECURE_URLS', async () => {
    expect(await privateAllowed.check('http://127.0.0.1/hooks')).toBe('the URL must use https');
  });
});
