import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const repoRoot = join(__dirname, '../../..');
const domainDir = join(repoRoot, 'packages/domain');
const checker = join(repoRoot, 'tools/scripts/check-boundaries.mjs');

/** Runs the boundary checker as `pnpm lint` does (it is ESM; Jest here is CommonJS). */
function check(...dirs: string[]) {
  const run = spawnSync(process.execPath, [checker, ...dirs], { cwd: repoRoot, encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

const temps: string[] = [];

/** A throwaway package: `files` maps paths (relative to the package) to their text. */
function fakePackage(files: Record<string, string>, manifest: object = { name: 'fake', dependencies: {} }) {
  const dir = mkdtempSync(join(tmpdir(), 'pis-purity-'));
  temps.push(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

function productionSources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return productionSources(full);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') ? [full] : [];
  });
}

afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

describe('packages/domain purity', () => {
  it('When the domain manifest is read, then it declares no dependencies of any kind', () => {
    const pkg = JSON.parse(readFileSync(join(domainDir, 'package.json'), 'utf8'));

    for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
      expect(Object.keys(pkg[field] ?? {})).toEqual([]);
    }
  });

  it('When the checker runs on the domain as pnpm lint does, then every source file is checked and found pure', () => {
    const expectedFiles = productionSources(join(domainDir, 'src')).length;

    const byDefault = check();
    const byPath = check('packages/domain');

    for (const run of [byDefault, byPath]) {
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(run.stdout).toContain(`packages/domain: pure (${expectedFiles} source files`);
    }
    expect(expectedFiles).toBeGreaterThan(30);
  });
});

describe('check-boundaries really fails', () => {
  it('When a source file imports express, then the checker fails and names that file', () => {
    const dir = fakePackage({
      'src/ok.ts': 'export const ok = 1;\n',
      'src/bad.ts': "import express from 'express';\nexport const app = express();\n",
    });

    const run = check(dir);

    expect(run.status).toBe(1);
    expect(run.stderr).toContain(join(dir, 'src/bad.ts'));
    expect(run.stderr).toContain("'express'");
    expect(run.stderr).not.toContain('ok.ts');
  });

  it.each([
    ['a named import of an ORM', "import { DataSource } from 'typeorm';", 'typeorm'],
    ['a type-only import of a validation library', "import type { JSONSchemaType } from 'ajv';", 'ajv'],
    ['a multi-line import of a queue', "import {\n  Queue,\n  Worker,\n} from 'bullmq';", 'bullmq'],
    ['a side-effect import', "import 'reflect-metadata';", 'reflect-metadata'],
    ['a node: built-in', "import { randomUUID } from 'node:crypto';", 'node:crypto'],
    ['a bare built-in', "import { readFileSync } from 'fs';", "'fs'"],
    ['a re-export of a workspace package', "export * from '@pis/contract';", '@pis/contract'],
    ['a require', "const http = require('node:http');", 'node:http'],
    ['an import-equals require', "import inversify = require('inversify');", 'inversify'],
    ['a dynamic import', "export const load = () => import('ioredis');", 'ioredis'],
    ['a relative path that leaves the package', "import { x } from '../../persistence/src/x';", 'outside'],
  ])('When a source file has %s, then the checker reports it', (_c, line, mention) => {
    const dir = fakePackage({ 'src/nested/leak.ts': `${line}\nexport const y = 1;\n` });

    const run = check(dir);

    expect(run.status).toBe(1);
    expect(run.stderr).toContain(join(dir, 'src/nested/leak.ts'));
    expect(run.stderr).toContain(mention);
  });

  it('When the manifest declares dependencies, then the checker names them', () => {
    const dir = fakePackage(
      { 'src/a.ts': 'export const a = 1;\n' },
      { name: 'fake', dependencies: { express: '^5.0.0' } },
    );

    const run = check(dir);

    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/package\.json: dependencies must be empty, has express/);
  });

  it('When there is nothing to check, then the checker fails rather than pass vacuously', () => {
    const run = check(fakePackage({}));

    expect(run.status).toBe(1);
    expect(run.stderr).toContain('no source files to check');
  });

  it('When sources import only each other and tests import test tools, then the checker passes', () => {
    const dir = fakePackage({
      'src/a.ts':
        "import { b } from './deep/b';\nexport * from './deep/b';\n// copied from the old module\nexport const a = b;\n",
      'src/deep/b.ts': "import type { A } from '../types';\nexport const b: A = 'the import is relative';\n",
      'src/types.ts': 'export type A = string;\n',
      'src/a.spec.ts': "import fc from 'fast-check';\nimport { a } from './a';\n",
      'src/b.property.spec.ts': "import fc from 'fast-check';\n",
    });

    const run = check(dir);

    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('pure (3 source files');
  });
});
