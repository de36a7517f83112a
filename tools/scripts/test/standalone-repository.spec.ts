import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const repoRoot = join(__dirname, '../../..');
const checker = join(repoRoot, 'tools/scripts/check-boundaries.mjs');

/**
 * Paths into a `shared` folder, assembled at run time so that this file itself names none
 * (the checker reads it too).
 */
const SHARED = ['sha', 'red'].join('');
const up = (steps: number, ...rest: string[]) => [...Array(steps).fill('..'), SHARED, ...rest].join('/');

/** Runs the checker as `pnpm lint` does (it is ESM; Jest here is CommonJS). */
function check(...args: string[]) {
  const run = spawnSync(process.execPath, [checker, ...args], { cwd: repoRoot, encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

function git(cwd: string, ...args: string[]) {
  const run = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${run.stderr}`);
}

const temps: string[] = [];

/**
 * A throwaway git repository with outside notes beside it, as a clone on CI may have them:
 * paths into those notes resolve on disk, and must still be refused. `tracked` files are added to the
 * index, `untracked` ones are left new.
 */
function fakeRepository(tracked: Record<string, string>, untracked: Record<string, string> = {}) {
  const parent = mkdtempSync(join(tmpdir(), 'pis-standalone-'));
  temps.push(parent);
  const repo = join(parent, 'repo');
  const write = (path: string, text: string) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  };
  write(join(parent, SHARED, 'spec', 'decisions.md'), '# outside notes\n');
  write(join(parent, SHARED, 'design', 'architecture.md'), '# the design\n');
  mkdirSync(repo);
  git(repo, 'init', '--quiet');
  for (const [path, text] of Object.entries(tracked)) write(join(repo, path), text);
  if (Object.keys(tracked).length > 0) git(repo, 'add', '-A');
  for (const [path, text] of Object.entries(untracked)) write(join(repo, path), text);
  return repo;
}

afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

describe('the repository stands alone', () => {
  it('When the checker runs on this repository as pnpm lint does, then it finds no path into a shared folder outside it', () => {
    const run = check();

    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^\.: stands alone \((\d+) files/m);
    expect(Number(/stands alone \((\d+) files/.exec(run.stdout)![1])).toBeGreaterThan(300);
  });
});

describe('the standalone check really fails', () => {
  it('When the README points at notes beside the clone, then the checker fails naming the file, the line and the path', () => {
    const repo = fakeRepository({
      'README.md': `# Service\n\nThe contract is \`${up(1, 'spec', 'decisions.md')}\`.\n`,
    });

    const run = check('--standalone', repo);

    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`README.md:3: '${up(1, 'spec', 'decisions.md')}'`);
    expect(run.stdout).toBe('');
  });

  it.each([
    ['a markdown link', 'docs/guide.md', `See [the decisions](${up(2, 'spec', 'decisions.md')}).\n`],
    ['a code comment', 'packages/a/src/a.ts', `// decisions section 3 (${up(4, 'spec', 'decisions.md')})\n`],
    ['a test title', 'apps/x/test/x.spec.ts', `it('follows ${up(4, 'spec')}', () => {});\n`],
    ['a path without dots', 'notes.md', `Read ${SHARED}/spec/decisions.md first.\n`],
    ['the design folder', 'docs/arch.md', `Layers as in ${up(2, 'design', 'architecture.md')}.\n`],
    ['an absolute path', 'tools/x.mjs', `// cf. /work/${SHARED}/spec/decisions.md\n`],
    ['the bare folder', 'CONTRIBUTING.md', `The notes live in ${up(1)} beside the clone.\n`],
    [
      'an import of a module that is not there',
      'packages/a/src/b.ts',
      `import { x } from '${up(1, 'x')}';\n`,
    ],
  ])('When a tracked file holds %s, then the checker reports it', (_case, path, text) => {
    const repo = fakeRepository({ 'README.md': '# Service\n', [path]: text });

    const run = check('--standalone', repo);

    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`${path}:1: '`);
    expect(run.stderr).not.toContain('README.md');
  });

  it('When a new file that git does not ignore holds the path, then the checker reports it before it is committed', () => {
    const repo = fakeRepository({ 'README.md': '# Service\n' }, { 'docs/new.md': `${up(2, 'spec')}\n` });

    const run = check('--standalone', repo);

    expect(run.status).toBe(1);
    expect(run.stderr).toContain('docs/new.md:1:');
  });

  it('When the paths sit only under .ci/, node_modules or an ignored folder, then the checker passes', () => {
    const repo = fakeRepository({
      '.gitignore': 'dist/\n',
      'README.md': '# Service\n',
      '.ci/run': `#!/bin/sh\ncat ${up(1, 'spec', 'decisions.md')}\n`,
      'packages/a/node_modules/dep/index.js': `require('${up(3, 'spec')}');\n`,
    });
    writeFileSync(join(repo, 'notes.txt'), 'untracked but clean\n');
    mkdirSync(join(repo, 'dist'));
    writeFileSync(join(repo, 'dist/main.js'), `// ${up(1, 'spec')}\n`);

    const run = check('--standalone', repo);

    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('stands alone (3 files');
  });

  it("When sources import the repository's own shared modules, then the checker passes", () => {
    const repo = fakeRepository({
      'packages/d/src/shared/outcome.ts': 'export const ok = 1;\n',
      'packages/d/src/shared/ids/index.ts': 'export const id = 1;\n',
      'packages/d/src/rules/rule.ts': `import { ok } from '${up(1, 'outcome')}';\nimport { id } from '${up(1, 'ids')}';\n`,
      'packages/d/src/use-cases/x/y.ts': `// the outcome type lives in ${up(2, 'outcome')}.\nexport * from '${up(2, 'outcome')}';\n`,
    });

    const run = check('--standalone', repo);

    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('stands alone (4 files');
  });

  it('When the folder is no git work tree, then the checker walks it and still reports the path', () => {
    const parent = mkdtempSync(join(tmpdir(), 'pis-standalone-'));
    temps.push(parent);
    mkdirSync(join(parent, 'export', 'docs'), { recursive: true });
    writeFileSync(join(parent, 'export', 'docs', 'a.md'), `${up(2, 'spec', 'decisions.md')}\n`);

    const run = check('--standalone', join(parent, 'export'));

    expect(run.status).toBe(1);
    expect(run.stderr).toContain('docs/a.md:1:');
  });
});
