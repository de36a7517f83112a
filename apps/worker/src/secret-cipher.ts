import { AesGcmSecretCipher, type Config } from '@pis/runtime';

/**
 * The cipher the API encrypts webhook secrets with when it runs on PostgreSQL (decision
 * 0004): `SECRETS_KEY` when set, else derived from `BACKOFFICE_TOKEN`. The worker must
 * use the same one to sign with the secrets the API stored.
 */
export function cipherFor(config: Config): AesGcmSecretCipher {
  if (config.secretsKey !== null) return new AesGcmSecretCipher(Buffer.from(config.secretsKey, 'base64'));
  if (config.backofficeToken === null) throw new Error('SECRETS_KEY or BACKOFFICE_TOKEN is required');
  return AesGcmSecretCipher.fromPassphrase(config.backofficeToken);
}
