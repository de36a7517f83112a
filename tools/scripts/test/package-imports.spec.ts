import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const repoRoot = join(__dirname, '../../..');
const checker = join(repoRoot, 'tools/scripts/check-boundaries.mjs');

/** Runs the checker as `pnpm lint` does (it is ESM; Jest here is CommonJS). */
function check(...args: string[]) {
  const run = spawnSync(process.execPath, [checker, ...args], { cwd: repoRoot, encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

const temps: string[] = [];

/** A throwaway workspace: two packages and an app, plus the given files. */
function fakeWorkspace(files: Record<string, string>) {
  const root = mkdtempSync(join(tmpdir(), 'pis-package-imports-'));
  temps.push(root);
  const all: Record<string, string> = {
    'packages/a/package.json': '{"name":"@x/a"}\n',
    'packages/a/src/index.ts': 'export const a = 1;\n',
    'packages/a/test/support/redis.ts': 'export const prefix = "t";\n',
    'apps/api/package.json': '{"name":"@x/api"}\n',
    'apps/api/src/main.ts': 'export const main = 1;\n',
    ...files,
  };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

describe("packages import each other's files by name only", () => {
  it('When the checker runs on this repository as pnpm lint does, then no package reaches into another by relative path', () => {
    const run = check();

    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(Number(/imports others by name \((\d+) files\)/.exec(run.stdout)![1])).toBeGreaterThan(300);
  });

  it.each([
    ['an import', "import { prefix } from '../../../packages/a/test/support/redis';"],
    ['a type import', "import type { prefix } from '../../../packages/a/test/support/redis';"],
    ['a require', "const { prefix } = require('../../../packages/a/test/support/redis');"],
    ['a dynamic import', "const load = () => import('../../../packages/a/src');"],
  ])(
    "When an app's test has %s of another package's file, then the checker fails naming both",
    (_c, line) => {
      const root = fakeWorkspace({ 'apps/api/test/x.spec.ts': `${line}\n` });

      const run = check('--package-imports', root);

      expect(run.status).toBe(1);
      expect(run.stderr).toContain('apps/api/test/x.spec.ts: imports');
      expect(run.stderr).toContain('outside apps/api');
    },
  );

  it("When a package's test support reaches a sibling package, then the checker fails", () => {
    const root = fakeWorkspace({
      'packages/b/package.json': '{"name":"@x/b"}\n',
      'packages/b/test/support/harness.ts': "export * from '../../../a/test/support/redis';\n",
    });

    const run = check('--package-imports', root);

    expect(run.status).toBe(1);
    expect(run.stderr).toContain('packages/b/test/support/harness.ts');
  });

  it('When files import within their own package, by name, or name a path that is no module, then the checker passes', () => {
    const root = fakeWorkspace({
      'apps/api/test/support/receiver.ts': 'export const r = 1;\n',
      'apps/api/test/x.spec.ts': [
        "import { r } from './support/receiver';",
        "import { main } from '../src/main';",
        "import { prefix } from '@x/a/test-support';",
        'const fixture = "import { y } from \'../../../packages/a/src/missing\';";',
        '',
      ].join('\n'),
    });

    const run = check('--package-imports', root);

    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('imports others by name (5 files)');
  });
});
