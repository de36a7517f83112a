import { createHash, randomBytes } from 'node:crypto';
import { newApiKey, type KeyHasher, type KeyKind, type KeyMode, type SecretFactory } from '../../src';

export class Sha256KeyHasher implements KeyHasher {
  hash(key: string): string {
    return createHash('sha256').update(key, 'utf8').digest('hex');
  }
}

/** Keys and secrets of the production shapes, from a CSPRNG. */
export class RandomSecrets implements SecretFactory {
  apiKey(brand: string, mode: KeyMode, kind: KeyKind = 'location'): string {
    return newApiKey(brand, mode, randomBytes, kind);
  }

  webhookSecret(): string {
    return `whsec_${randomBytes(32).toString('base64')}`;
  }
}
