import { createHash, randomBytes } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { Instant, type Clock, type IdGenerator, type KeyHasher, type SecretFactory } from '@pis/domain';

export class SystemClock implements Clock {
  now(): Instant {
    return Instant.fromEpochMillis(Date.now());
  }
}

/** UUIDv7: random, but time-ordered, so new rows land at the right edge of their indexes. */
export class RandomIdGenerator implements IdGenerator {
  uuid(): string {
    return uuidv7();
  }
}

export class Sha256KeyHasher implements KeyHasher {
  hash(key: string): string {
    return createHash('sha256').update(key, 'utf8').digest('hex');
  }
}

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Unbiased base62 from a CSPRNG (rejection sampling: bytes >= 248 are dropped). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

export class CryptoSecretFactory implements SecretFactory {
  apiKey(brand: string): string {
    return `${brand}_sk_live_${randomBase62(40)}`;
  }

  webhookSecret(): string {
    return `whsec_${randomBytes(32).toString('base64')}`;
  }
}
