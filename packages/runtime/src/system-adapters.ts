import { createHash, randomBytes } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import {
  Instant,
  base62,
  newApiKey,
  type Clock,
  type IdGenerator,
  type KeyHasher,
  type KeyKind,
  type KeyMode,
  type SecretFactory,
} from '@pis/domain';

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

/** Unbiased base62 from a CSPRNG. */
export const randomBase62 = (length: number): string => base62(length, randomBytes);

export class CryptoSecretFactory implements SecretFactory {
  apiKey(brand: string, mode: KeyMode, kind: KeyKind = 'location'): string {
    return newApiKey(brand, mode, randomBytes, kind);
  }

  webhookSecret(): string {
    return `whsec_${randomBytes(32).toString('base64')}`;
  }
}
