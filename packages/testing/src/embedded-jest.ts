import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Runs a package's embedded (PGlite) suites in a Jest of their own with
 * --experimental-vm-modules (PGlite loads Node modules with a dynamic import() that Jest's
 * CommonJS sandbox refuses otherwise) and fails with their report. Every `*.pglite.ts` beside
 * the config must have run, and every one of their tests passed.
 */
export async function expectEmbeddedSuitesToPass(config: string): Promise<void> {
  const jest = require.resolve('jest/bin/jest');
  const report = await new Promise<{ code: number; output: string }>((resolve) => {
    execFile(
      process.execPath,
      ['--experimental-vm-modules', '--no-warnings', jest, '--config', config, '--ci', '--runInBand'],
      { timeout: 280_000, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, NODE_OPTIONS: '' } },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stderr}\n${stdout}` }),
    );
  });
  if (report.code !== 0) throw new Error(`the embedded suites failed:\n${report.output}`);
  const files = readdirSync(dirname(config)).filter((f) => f.endsWith('.pglite.ts'));
  const suites = /Test Suites:\s+(\d+) passed, (\d+) total/.exec(report.output);
  const tests = /Tests:\s+(\d+) passed, (\d+) total/.exec(report.output);
  expect([Number(suites?.[1]), Number(suites?.[2])]).toEqual([files.length, files.length]);
  expect(Number(tests?.[1])).toBeGreaterThan(0);
  expect(tests?.[1]).toBe(tests?.[2]);
}
