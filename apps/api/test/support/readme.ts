import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '../../../..');

/** The shell block of README.md between `<!-- NAME:start -->` and `<!-- NAME:end -->`, as a reader pastes it. */
export function readmeBlock(name: string): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = new RegExp(
    `<!-- ${name}:start -->\\s*\`\`\`sh\\n([\\s\\S]*?)\`\`\`\\s*<!-- ${name}:end -->`,
  ).exec(readme);
  if (!block) throw new Error(`README.md has no ${name} block`);
  return block[1]!;
}

export interface Pasted {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Pastes `script` into a bash at the repository root, as an interactive shell would run it
 * (no `-e` of our own: the README's blocks bring theirs), without blocking this process
 * (an API under test may run in it). `env` holds what the reader exported.
 */
export function paste(script: string, env: Record<string, string>, timeoutMs = 120_000): Promise<Pasted> {
  const child = spawn('bash', ['-c', script], { cwd: ROOT, env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve) =>
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    }),
  );
}

/** What a block that stopped at once must show: a non-zero exit, no Node stack trace, the reason on screen. */
export function expectStoppedLoudly(pasted: Pasted, reason: RegExp | string): void {
  expect(pasted.status).not.toBe(0);
  expect(pasted.status).not.toBeNull();
  expect(`${pasted.stdout}${pasted.stderr}`).toMatch(reason);
  expect(pasted.stderr).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
}
