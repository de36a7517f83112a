import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const repoRoot = join(__dirname, '../../..');
const checker = join(repoRoot, 'tools/scripts/check-dependencies.mjs');

/** Runs the dependency checker as `pnpm lint` does (it is ESM; Jest here is CommonJS). */
function check(repo: string) {
  const run = spawnSync(process.execPath, [checker, repo], { encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** A throwaway workspace: `files` maps paths to text (objects are written as JSON). */
function fakeRepo(files: Record<string, string | object>): string {
  const dir = mkdtempSync(join(tmpdir(), 'pis-deps-'));
  temps.push(dir);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), typeof content === 'string' ? content : JSON.stringify(content));
  }
  return dir;
}

const webhooks = (dependencies: Record<string, string>, source: string) => ({
  'packages/webhooks/package.json': {
    name: '@pis/webhooks',
    dependencies,
    devDependencies: { '@pis/persistence': '*' },
  },
  'packages/webhooks/src/index.ts': source,
});

describe('Dependency boundaries (tools/scripts/check-dependencies.mjs)', () => {
  it('When the repository is checked, then every package imports only what it declares and adapters depend only inward', () => {
    const result = check(repoRoot);

    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('When an adapter source imports a devDependency (another adapter), then the check names the file and the import', () => {
    const repo = fakeRepo(webhooks({ '@pis/domain': '*' }, `import { Database } from '@pis/persistence';\n`));

    const result = check(repo);

    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      "packages/webhooks/src/index.ts: imports '@pis/persistence', which packages/webhooks does not declare",
    );
  });

  it('When an adapter declares another adapter as a dependency, then the check refuses the manifest', () => {
    const repo = fakeRepo(webhooks({ '@pis/domain': '*', '@pis/persistence': '*' }, `export {};\n`));

    const result = check(repo);

    expect(result.status).toBe(1);
    expect(result.stderr).toContain('packages/webhooks/package.json: depends on @pis/persistence');
  });

  it('When sources import built-ins, their own files, declared packages, or mention "from" in prose, then nothing is flagged', () => {
    const repo = fakeRepo(
      webhooks(
        { '@pis/domain': '*', bullmq: '*' },
        [
          `import { randomUUID } from 'node:crypto';`,
          `import http from 'http';`,
          `import { ok } from '@pis/domain';`,
          `import { Queue } from 'bullmq/dist/cjs';`,
          `import { x } from './x';`,
          `// tells "up" from "down", and a message from 'the statement failed'`,
        ].join('\n'),
      ),
    );

    const result = check(repo);

    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('When a source imports only types from a devDependency, then that is allowed (types vanish at build time)', () => {
    const repo = fakeRepo(
      webhooks(
        {},
        `import type { Database } from '@pis/persistence';\nexport type { Sql } from '@pis/persistence';\n`,
      ),
    );

    expect(check(repo).status).toBe(0);
  });

  it('When a test file imports a devDependency, then that is allowed', () => {
    const repo = fakeRepo({
      ...webhooks({}, `export {};\n`),
      'packages/webhooks/src/thing.spec.ts': `import { Database } from '@pis/persistence';\n`,
    });

    expect(check(repo).status).toBe(0);
  });

  it('When a package declares a dependency that no source imports, then the check names the package and the dependency', () => {
    const repo = fakeRepo(
      webhooks({ '@pis/domain': '*', bullmq: '*' }, `import { ok } from '@pis/domain';\n`),
    );

    const result = check(repo);

    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      'packages/webhooks/package.json: depends on bullmq, which no source of packages/webhooks imports',
    );
  });

  it('When only tests import a dependency, then the check asks for it in devDependencies', () => {
    const repo = fakeRepo({
      ...webhooks({ '@pis/domain': '*', pg: '*' }, `import { ok } from '@pis/domain';\n`),
      'packages/webhooks/test/db.ts': `import { Client } from 'pg';\n`,
      'packages/webhooks/src/x.spec.ts': `import { Pool } from 'pg';\n`,
    });

    const result = check(repo);

    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      'packages/webhooks/package.json: only tests import pg; move it to devDependencies',
    );
  });

  it('When a dependency is used by a script beside src, by a lazy require or by types only, then it counts as used', () => {
    const repo = fakeRepo({
      ...webhooks(
        { '@pis/domain': '*', esbuild: '*', 'pino-pretty': '*', ioredis: '*' },
        [
          `import type { Redis } from 'ioredis';`,
          `const { build } = require('pino-pretty') as typeof import('pino-pretty');`,
          `export { ok } from '@pis/domain';`,
        ].join('\n'),
      ),
      'packages/webhooks/bundle.cjs': `const { build } = require('esbuild');\n`,
    });

    const result = check(repo);

    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('When a dependency is named only in a comment, then it is not used', () => {
    const repo = fakeRepo(
      webhooks(
        { '@pis/domain': '*', bullmq: '*' },
        `export { ok } from '@pis/domain';\n// import { Queue } from 'bullmq';\n`,
      ),
    );

    const result = check(repo);

    expect(result.status).toBe(1);
    expect(result.stderr).toContain('depends on bullmq, which no source of packages/webhooks imports');
  });

  it('When workspace packages depend on each other in a cycle through a devDependency, then the check names the cycle', () => {
    const manifest = (name: string, devDependencies: Record<string, string> = {}) => ({
      name,
      dependencies: {},
      devDependencies,
    });
    const repo = fakeRepo({
      'apps/api/package.json': manifest('@pis/api', { '@pis/console': '*' }),
      'packages/console/package.json': manifest('@pis/console', { '@pis/sdk': '*' }),
      'packages/sdk/package.json': manifest('@pis/sdk', { '@pis/api': '*' }),
      'tools/cli/package.json': manifest('@pis/cli', { '@pis/api': '*' }),
    });

    const result = check(repo);

    expect(result.status).toBe(1);
    expect(result.stderr).toContain('in a cycle');
    expect(result.stderr).toContain('@pis/api -> @pis/console -> @pis/sdk -> @pis/api');
    // Depending on a package of the cycle is no cycle of its own.
    expect(result.stderr).not.toContain('@pis/cli');
  });
});
