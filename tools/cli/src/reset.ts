import { resetDataDir, type ResetOutcome } from '@pis/api';
import { loadConfig } from '@pis/runtime';

/** What `pnpm reset` prints and its exit code. */
export async function runReset(env: NodeJS.ProcessEnv): Promise<{ code: number; message: string }> {
  if (env.DATABASE_URL?.trim()) {
    return {
      code: 2,
      message:
        'pnpm reset removes the embedded database in DATA_DIR; DATABASE_URL is set, so it changes nothing: ' +
        'drop or recreate that database yourself.',
    };
  }
  const { dataDir } = loadConfig({ BACKOFFICE_TOKEN: 'reset-serves-no-http', ...env });
  return describe(await resetDataDir(dataDir));
}

function describe(outcome: ResetOutcome): { code: number; message: string } {
  switch (outcome.kind) {
    case 'removed':
      return {
        code: 0,
        message:
          `Removed ${outcome.dataDir}. The next pnpm start creates a new demo location and prints all four export lines anew: ` +
          'its id and key, and a new BACKOFFICE_TOKEN (paste them all again).',
      };
    case 'absent':
      return { code: 0, message: `Nothing to reset: ${outcome.dataDir} does not exist.` };
    case 'in-use':
      return {
        code: 1,
        message: `${outcome.dataDir} is in use by process ${outcome.pid} (a running API or CLI); stop it first.`,
      };
    case 'not-a-data-dir':
      return {
        code: 1,
        message: `${outcome.dataDir} does not look like an embedded data directory (no PG_VERSION, backoffice-token or secrets.key); not removing it.`,
      };
  }
}
