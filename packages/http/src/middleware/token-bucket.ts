/**
 * A token bucket per key: `rate` tokens a second, at most `burst` banked. Synchronous and
 * O(1) per request; idle buckets are swept so memory stays bounded by the active keys.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private lastSweep = 0;

  constructor(
    private readonly rate: number,
    private readonly burst: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** 0 when a token was taken, else the milliseconds until one will be there. */
  take(key: string): number {
    const now = this.now();
    this.sweep(now);
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, at: now };
    const tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) * this.rate) / 1000);
    if (tokens >= 1) {
      this.buckets.set(key, { tokens: tokens - 1, at: now });
      return 0;
    }
    this.buckets.set(key, { tokens, at: now });
    return Math.ceil(((1 - tokens) * 1000) / this.rate);
  }

  /** A bucket idle long enough to be full again carries no state worth keeping. */
  private sweep(now: number): void {
    const fullAfterMs = (this.burst * 1000) / this.rate;
    if (now - this.lastSweep < fullAfterMs) return;
    this.lastSweep = now;
    for (const [key, bucket] of this.buckets) {
      if (now - bucket.at >= fullAfterMs) this.buckets.delete(key);
    }
  }
}
