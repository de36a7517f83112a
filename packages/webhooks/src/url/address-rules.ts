import ipaddr from 'ipaddr.js';

/**
 * Addresses that answer for a cloud provider's instance metadata or host agent. They are
 * refused even where private addresses are allowed: a webhook to one of them can leak the
 * credentials of the machine that sends it.
 */
const METADATA_ADDRESSES = new Set([
  '169.254.169.254', // AWS, GCP, Azure, OpenStack, DigitalOcean
  '169.254.169.253', // AWS VPC DNS
  '169.254.169.123', // AWS time sync
  '169.254.170.2', // AWS ECS task metadata
  '168.63.129.16', // Azure wire server (a public address)
  '100.100.100.200', // Alibaba Cloud
  '192.0.0.192', // Oracle Cloud
  'fd00:ec2::254', // AWS over IPv6
  'fd00:ec2::23', // AWS VPC DNS over IPv6
  'fd00:ec2::123', // AWS time sync over IPv6
]);

/** Never a webhook receiver, whatever the configuration says. */
const ALWAYS_REFUSED = new Set(['unspecified', 'multicast', 'broadcast']);

const LABELS: Record<string, string> = {
  metadata: 'a cloud metadata address',
  unspecified: 'an unspecified address',
  multicast: 'a multicast address',
  broadcast: 'a broadcast address',
  loopback: 'a loopback address',
  private: 'a private address',
  linkLocal: 'a link-local address',
  uniqueLocal: 'a unique-local address',
  carrierGradeNat: 'a carrier-grade NAT (shared) address',
};

/** IPv4-compatible IPv6 (`::a.b.c.d`, deprecated): ipaddr.js calls it unicast, it is not. */
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

export interface AddressRuleOptions {
  allowPrivate: boolean;
}

/**
 * Why a webhook may not be sent to `address` (a noun phrase such as "a private address"),
 * or null when it may. Only global unicast addresses are allowed by default; with
 * `allowPrivate` every address is allowed except metadata, unspecified, multicast and
 * broadcast ones. IPv4-mapped IPv6 addresses are judged as the IPv4 address they carry.
 */
export function refusedAddress(address: string, options: AddressRuleOptions): string | null {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  const parsed = ipaddr.process(address);
  const normalized = parsed.toString();
  if (METADATA_ADDRESSES.has(normalized)) return LABELS.metadata!;
  let range: string = parsed.range();
  if (parsed.kind() === 'ipv6' && range === 'unicast' && parsed.match(IPV4_COMPATIBLE)) range = 'reserved';
  if (ALWAYS_REFUSED.has(range)) return LABELS[range]!;
  if (range === 'unicast' || options.allowPrivate) return null;
  return LABELS[range] ?? 'a reserved or special-purpose address';
}

/** The address without the brackets a URL puts around an IPv6 literal; null for a name. */
export function ipLiteral(hostname: string): string | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) && (bare.includes(':') || ipaddr.IPv4.isValidFourPartDecimal(bare))
    ? bare
    : null;
}
