import { execFile } from 'node:child_process';
import { join } from 'node:path';

/**
 * The PGlite suite (`embedded/*.pglite.ts`) runs in a Jest of its own with
 * --experimental-vm-modules (PGlite loads Node modules with a dynamic import() that Jest's
 * CommonJS sandbox refuses otherwise). This spec runs it and fails with its report.
 */
describe('in-process delivery on embedded PGlite', () => {
  it('When the embedded delivery suite runs, then every one of its tests passes', async () => {
    const jest = require.resolve('jest/bin/jest');
    const config = join(__dirname, 'embedded', 'jest.config.js');

    const report = await new Promise<{ code: number; output: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--experimental-vm-modules', '--no-warnings', jest, '--config', config, '--ci', '--runInBand'],
        { timeout: 280_000, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, NODE_OPTIONS: '' } },
        (error, stdout, stderr) =>
          resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stderr}\n${stdout}` }),
      );
    });

    if (report.code !== 0) throw new Error(`the embedded suite failed:\n${report.output}`);
    const tests = /Tests:\s+(\d+) passed, (\d+) total/.exec(report.output);
    expect(Number(tests?.[1])).toBeGreaterThan(0);
    expect(tests?.[1]).toBe(tests?.[2]);
  }, 300_000);
});
