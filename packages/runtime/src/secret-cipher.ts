import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** Reversible protection of secrets at rest (webhook secrets must be usable to sign). */
export interface SecretCipher {
  encrypt(plain: string): string;
  decrypt(stored: string): string;
}

const VERSION = 'v1';

/**
 * AES-256-GCM with a random 96-bit nonce per value. Stored form:
 * `v1.<nonce b64url>.<ciphertext b64url>.<tag b64url>`; tampering makes decrypt throw.
 */
export class AesGcmSecretCipher implements SecretCipher {
  private readonly key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('AesGcmSecretCipher needs a 32-byte key');
    this.key = key;
  }

  /** Derives the key from any passphrase (e.g. a token); use a random 32-byte key where possible. */
  static fromPassphrase(passphrase: string): AesGcmSecretCipher {
    return new AesGcmSecretCipher(createHash('sha256').update(`pis-secrets:${passphrase}`).digest());
  }

  encrypt(plain: string): string {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, nonce, body, cipher.getAuthTag()]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  decrypt(stored: string): string {
    const [version, nonce, body, tag] = stored.split('.');
    if (version !== VERSION || nonce === undefined || body === undefined || tag === undefined) {
      throw new Error('stored secret has an unknown format');
    }
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(nonce, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }
}

/**
 * The cipher of webhook secrets when the service runs on PostgreSQL (decision 0004):
 * `SECRETS_KEY` when set, else derived from `BACKOFFICE_TOKEN`. The API and the worker
 * must agree on it: the worker signs with the secrets the API stored.
 */
export function databaseModeCipher(config: {
  secretsKey: string | null;
  backofficeToken: string | null;
}): AesGcmSecretCipher {
  if (config.secretsKey !== null) return new AesGcmSecretCipher(Buffer.from(config.secretsKey, 'base64'));
  if (config.backofficeToken === null) throw new Error('SECRETS_KEY or BACKOFFICE_TOKEN is required');
  return AesGcmSecretCipher.fromPassphrase(config.backofficeToken);
}
