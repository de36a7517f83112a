import { parseArgs } from 'node:util';
import { createOperatorRuntime, type OperatorRuntime } from '@pis/api';
import { createValidator, toFailureBody, type ContractValidator } from '@pis/contract';
import { createLogger, loadConfig } from '@pis/runtime';
import { COMMANDS, type CliContext } from './commands';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs one operator command against the database the environment names (`DATABASE_URL`,
 * or the embedded one in `DATA_DIR`, which must not be open in a running API). Answers
 * the response body as JSON on stdout, or the error envelope on stderr with exit code 1.
 */
export async function runCli(argv: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  if (argv.length === 0) return { code: 2, stdout: '', stderr: usage() };
  if (HELP.includes(argv[0]!)) return { code: 0, stdout: usage(), stderr: '' };
  const [group, action, ...rest] = argv;
  const name = `${group ?? ''} ${action ?? ''}`.trim();
  const command = COMMANDS[name];
  if (!command) {
    const words = argv
      .filter((word) => !word.startsWith('-'))
      .slice(0, 2)
      .join(' ');
    return { code: 2, stdout: '', stderr: `unknown command "${words || argv[0]}"\n\n${usage()}` };
  }
  if (rest.some((word) => HELP.includes(word))) {
    return { code: 0, stdout: `usage: pnpm cli ${name} ${command.usage}\n`, stderr: '' };
  }
  let flags: Record<string, string | undefined>;
  try {
    const options = Object.fromEntries([
      ...command.flags.map((f) => [f, { type: 'string' as const }]),
      ...(command.switches ?? []).map((f) => [f, { type: 'boolean' as const }]),
    ]);
    const parsed = parseArgs({ args: rest, options, strict: true }).values;
    flags = Object.fromEntries(
      Object.entries(parsed).map(([k, v]) => [k, typeof v === 'boolean' ? String(v) : (v as string)]),
    );
  } catch (error) {
    return {
      code: 2,
      stdout: '',
      stderr: `${(error as Error).message}\nusage: pnpm cli ${name} ${command.usage}\n`,
    };
  }
  // Ids name what a command acts on; every command that takes one needs it.
  const missing = ['location', 'order', 'key', 'item', 'provider'].filter(
    (f) => command.flags.includes(f) && !flags[f],
  );
  if (missing.length > 0) {
    return {
      code: 2,
      stdout: '',
      stderr: `missing --${missing.join(', --')}\nusage: pnpm cli ${name} ${command.usage}\n`,
    };
  }

  // The CLI serves no HTTP, so embedded mode needs no backoffice token; with DATABASE_URL the
  // real one is required (it may be what protects webhook secrets at rest).
  const embedded = !env.DATABASE_URL;
  const config = loadConfig(embedded ? { BACKOFFICE_TOKEN: 'cli-serves-no-http', ...env } : env);
  // Only what a command needs: the database and the use cases; the schemas it checks are
  // compiled when it first checks them (a server compiles them all at start).
  let runtime: OperatorRuntime | null = null;
  try {
    runtime = await createOperatorRuntime(config, createLogger('silent'));
    let validator: ContractValidator | null = null;
    const ctx: CliContext = {
      deps: runtime.deps,
      get validator() {
        return (validator ??= createValidator({ compile: 'on-first-use' }));
      },
      keyRevoked: runtime.keyRevoked,
      connectionRevoked: runtime.connectionRevoked,
    };
    const outcome = await command.run(ctx, flags);
    return outcome.ok
      ? { code: 0, stdout: `${JSON.stringify(outcome.value ?? { ok: true }, null, 2)}\n`, stderr: '' }
      : { code: 1, stdout: '', stderr: `${JSON.stringify(toFailureBody(outcome), null, 2)}\n` };
  } finally {
    await runtime?.stop();
  }
}

const HELP = ['--help', '-h', 'help'];

export function usage(): string {
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  pnpm cli ${name} ${c.usage}`);
  return `usage:\n${lines.join('\n')}\n  pnpm cli --help\n\nThe database is DATABASE_URL, or the embedded one in DATA_DIR (default ./.data) while no API runs on it.\n`;
}
