import type { WebhookUrlPolicy } from '../../src';

type Rule = (url: string) => string | null;

/**
 * Allows every URL until told otherwise. `refuse` adds a rule: an exact URL, a pattern, or a
 * function answering the reason; the first rule that answers a reason refuses.
 */
export class ConfigurableUrlPolicy implements WebhookUrlPolicy {
  private rules: Rule[] = [];

  constructor(options: { requireHttps?: boolean } = {}) {
    if (options.requireHttps) {
      this.rules.push((url) => (url.startsWith('https://') ? null : 'the webhook URL must use https'));
    }
  }

  refuse(match: string | RegExp | Rule, reason = 'the webhook URL is not allowed'): this {
    if (typeof match === 'function') this.rules.push(match);
    else
      this.rules.push((url) =>
        (typeof match === 'string' ? url === match : match.test(url)) ? reason : null,
      );
    return this;
  }

  allowAll(): this {
    this.rules = [];
    return this;
  }

  async check(url: string): Promise<string | null> {
    for (const rule of this.rules) {
      const reason = rule(url);
      if (reason !== null) return reason;
    }
    return null;
  }
}
