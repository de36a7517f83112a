import { lookup } from 'node:dns/promises';
import type { WebhookUrlPolicy } from '@pis/domain';
import { ipLiteral, refusedAddress } from './address-rules';

export interface UrlPolicyOptions {
  /** `WEBHOOK_ALLOW_PRIVATE_URLS`: loopback, private, link-local... receivers are accepted. */
  allowPrivate: boolean;
  /** `WEBHOOK_ALLOW_INSECURE_URLS`: plain `http` URLs are accepted. */
  allowInsecure: boolean;
}

/** Every address a host name resolves to (A and AAAA). */
export type Resolver = (hostname: string) => Promise<string[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/** The parts of a URL the policy accepted without DNS. */
export type StaticCheck =
  { ok: true; url: URL; hostname: string; literal: boolean } | { ok: false; reason: string };

/**
 * docs/reference/webhooks.md#receiver-urls: `https` only (unless insecure URLs are allowed), and no receiver
 * on loopback, private, link-local, unique-local, CGNAT or metadata addresses (unless
 * private URLs are allowed; metadata never). A host name is refused when any address it
 * resolves to is refused, so one bad record cannot slip through. The same rule is applied
 * again to the address a delivery actually connects to (see `guarded-lookup.ts`).
 */
export class DnsWebhookUrlPolicy implements WebhookUrlPolicy {
  constructor(
    private readonly options: UrlPolicyOptions,
    private readonly resolve: Resolver = systemResolver,
  ) {}

  async check(url: string): Promise<string | null> {
    const parsed = this.checkWithoutDns(url);
    if (!parsed.ok) return parsed.reason;
    if (parsed.literal) return null;
    let addresses: string[];
    try {
      addresses = await this.resolve(parsed.hostname);
    } catch {
      return `the URL's host ${parsed.hostname} could not be resolved`;
    }
    if (addresses.length === 0) return `the URL's host ${parsed.hostname} could not be resolved`;
    for (const address of addresses) {
      const refusal = this.refusal(address);
      if (refusal !== null) return `the URL's host ${parsed.hostname} resolves to ${address}, ${refusal}`;
    }
    return null;
  }

  /** Scheme, credentials and IP-literal hosts: everything that needs no name resolution. */
  checkWithoutDns(url: string): StaticCheck {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return { ok: false, reason: 'the URL is not a valid absolute URL' };
    }
    const schemes = this.options.allowInsecure ? ['https:', 'http:'] : ['https:'];
    if (!schemes.includes(parsed.protocol)) {
      return {
        ok: false,
        reason: this.options.allowInsecure ? 'the URL must use https or http' : 'the URL must use https',
      };
    }
    if (parsed.username !== '' || parsed.password !== '') {
      return { ok: false, reason: 'the URL must not carry a user name or password' };
    }
    const literal = ipLiteral(parsed.hostname);
    if (literal !== null) {
      const refusal = this.refusal(literal);
      if (refusal !== null) return { ok: false, reason: `the URL's host ${literal} is ${refusal}` };
    }
    return { ok: true, url: parsed, hostname: literal ?? parsed.hostname, literal: literal !== null };
  }

  /** Why the address may not receive webhooks, as the end of a sentence; null when it may. */
  refusal(address: string): string | null {
    const what = refusedAddress(address, { allowPrivate: this.options.allowPrivate });
    if (what === null) return null;
    // With private addresses allowed, whatever is still refused is refused for good.
    return this.options.allowPrivate || what === 'a cloud metadata address'
      ? `${what}; webhooks are never sent there`
      : `${what}; webhooks are only sent to public addresses`;
  }
}
