import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { AesGcmSecretCipher, databaseModeCipher, randomBase62, type Config } from '@pis/runtime';

export interface ResolvedSecrets {
  backofficeToken: string;
  cipher: AesGcmSecretCipher;
  /** True when this start generated the backoffice token (first start in embedded mode). */
  generatedToken: boolean;
}

/**
 * Where the backoffice token and the key that encrypts webhook secrets come from
 * (decision 0004): the environment when given; in embedded mode files in `DATA_DIR`
 * (mode 0600) made at first start; with `DATABASE_URL` the token is required and the
 * cipher key, when `SECRETS_KEY` is unset, is derived from it.
 */
export async function resolveSecrets(config: Config): Promise<ResolvedSecrets> {
  const embedded = config.databaseUrl === null;
  if (embedded) await mkdir(config.dataDir, { recursive: true });
  let generatedToken = false;
  let backofficeToken = config.backofficeToken;
  if (backofficeToken === null) {
    if (!embedded) throw new Error('BACKOFFICE_TOKEN is required when DATABASE_URL is set');
    const made = await readOrCreate(join(config.dataDir, 'backoffice-token'), () => randomBase62(40));
    backofficeToken = made.value;
    generatedToken = made.created;
  }
  let cipher: AesGcmSecretCipher;
  if (embedded && config.secretsKey === null) {
    const key = await readOrCreate(join(config.dataDir, 'secrets.key'), () =>
      randomBytes(32).toString('base64'),
    );
    cipher = new AesGcmSecretCipher(Buffer.from(key.value, 'base64'));
  } else cipher = databaseModeCipher({ secretsKey: config.secretsKey, backofficeToken });
  return { backofficeToken, cipher, generatedToken };
}

async function readOrCreate(path: string, make: () => string): Promise<{ value: string; created: boolean }> {
  try {
    return { value: (await readFile(path, 'utf8')).trim(), created: false };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    const value = make();
    await writeFile(path, `${value}\n`, { mode: 0o600, flag: 'wx' });
    await chmod(path, 0o600);
    return { value, created: true };
  }
}
