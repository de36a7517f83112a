import { createHash, randomBytes } from 'node:crypto';
import type { KeyHasher, SecretFactory } from '@pis/domain';

export class Sha256KeyHasher implements KeyHasher {
  hash(key: string): string {
    return createHash('sha256').update(key, 'utf8').digest('hex');
  }
}

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Keys and secrets of the production shapes, from a CSPRNG. */
export class RandomSecrets implements SecretFactory {
  apiKey(brand: string): string {
    let body = '';
    while (body.length < 40) {
      for (const byte of randomBytes(64)) if (byte < 248 && body.length < 40) body += BASE62[byte % 62];
    }
    return `${brand}_sk_live_${body}`;
  }

  webhookSecret(): string {
    return `whsec_${randomBytes(32).toString('base64')}`;
  }
}
