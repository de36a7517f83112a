// Two boundaries, run by `pnpm lint`:
// - The hexagon's arrows point inwards: the domain package declares no dependencies and its
//   sources import nothing but their own files, by relative path (no framework, ORM, queue,
//   HTTP or validation library, not even `node:` built-ins). Tests (*.spec.*, *.test.*) may
//   import test tools. Proven by tools/scripts/test/purity.spec.ts.
// - The repository stands alone: no file (tracked, or new and not ignored; `.ci/` and
//   node_modules aside) names a path into a `shared` folder that is not part of the
//   repository, such as notes kept beside a working copy, which a clone does not have.
//   The domain's own `shared` modules are fine: their paths resolve inside the repository.
//   Proven by tools/scripts/test/standalone-repository.spec.ts.
// - Each workspace package keeps to itself: no file of a package (packages/*, apps/*, tools/*
//   with a package.json), tests and their support included, imports another package's files by
//   a relative path (`../../../packages/webhooks/test/support/redis`). Shared test support is
//   imported by name (`@pis/testing`, `@pis/testing/webhooks`, `@pis/testing/worker`,
//   `@pis/persistence/test-support`, `@pis/webhooks/test-support`), so the dependency shows in
//   package.json and checks above see it. Proven by tools/scripts/test/package-imports.spec.ts.
//
// Usage: node tools/scripts/check-boundaries.mjs [packageDir ...] [--standalone repoDir]
//        [--package-imports repoDir]
// Without arguments: the purity of packages/domain, the standalone check and the package-imports
// check of this repository.
// Exit 0 and a one-line summary per check on stdout; exit 1 naming every offence on stderr.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

const SOURCE = /\.(?:ts|tsx|mts|cts|js|mjs|cjs)$/;
const TEST = /\.(?:spec|test)\.[a-z]+$/;
// The module specifier of `… from '…'` (import and export), a side-effect `import '…'`,
// `require('…')` (also `import x = require('…')`) and `import('…')`. A specifier never
// spans lines, which keeps prose in comments and strings from matching.
const IMPORTS = [
  /\bfrom\s*(['"])([^'"\n]+)\1/g,
  /^\s*import\s*(['"])([^'"\n]+)\1/gm,
  /\brequire\s*\(\s*(['"`])([^'"`\n]+)\1\s*\)/g,
  /\bimport\s*\(\s*(['"`])([^'"`\n]+)\1/g,
];
const DEPENDENCY_FIELDS = ['dependencies', 'peerDependencies', 'optionalDependencies'];

const shown = (path) => {
  const rel = relative(root, path);
  return rel.startsWith('..') || isAbsolute(rel) ? path : rel;
};

function sourceFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (name === 'node_modules') return [];
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return SOURCE.test(name) && !TEST.test(name) ? [full] : [];
  });
}

/** Imports under `dir` that are not relative, or that are relative but leave `dir`. */
export function forbiddenImports(dir) {
  const base = resolve(dir);
  const found = [];
  for (const file of sourceFiles(base)) {
    const text = readFileSync(file, 'utf8');
    for (const spec of new Set(IMPORTS.flatMap((re) => [...text.matchAll(re)].map((m) => m[2])))) {
      if (!spec.startsWith('.')) {
        found.push(`${shown(file)}: imports '${spec}' (only relative imports are allowed)`);
        continue;
      }
      const target = relative(base, resolve(dirname(file), spec));
      if (target.startsWith('..') || isAbsolute(target)) {
        found.push(`${shown(file)}: imports '${spec}', which lies outside ${shown(base)}`);
      }
    }
  }
  return found;
}

/** Every offence of one package: declared dependencies and forbidden imports under its src. */
export function checkPackage(packageDir) {
  const dir = resolve(packageDir);
  const problems = [];
  const manifest = join(dir, 'package.json');
  if (existsSync(manifest)) {
    const pkg = JSON.parse(readFileSync(manifest, 'utf8'));
    for (const field of DEPENDENCY_FIELDS) {
      const names = Object.keys(pkg[field] ?? {});
      if (names.length > 0)
        problems.push(`${shown(manifest)}: ${field} must be empty, has ${names.join(', ')}`);
    }
  } else {
    problems.push(`${shown(manifest)}: missing`);
  }
  const src = join(dir, 'src');
  const files = sourceFiles(src);
  if (files.length === 0) problems.push(`${shown(src)}: no source files to check`);
  problems.push(...forbiddenImports(src));
  return { files: files.length, problems };
}

// A path through a folder named `shared`: one reached by `..` steps, or one whose next step is
// `spec` or `design` (written with escapes so that this file does not match itself).
const SHARED_PATH =
  /(?:\.\.\/)+shared(?![\w-])[^\s'"`()<>[\]{},;|*]*|[^\s'"`()<>[\]{},;|*]*\bshared\/(?:spec|design)\b[^\s'"`()<>[\]{},;|*]*/g;
const MODULE_SUFFIXES = [
  '',
  '.ts',
  '.tsx',
  '.mts',
  '.cts',
  '.js',
  '.mjs',
  '.cjs',
  '.json',
  '/index.ts',
  '/index.js',
];
const SKIPPED_DIRS = new Set(['node_modules', '.git', '.ci', '.data', 'dist', 'coverage', '.test-logs']);

/** Files git would commit (tracked, or new and not ignored); a walk when `root` is no git work tree. */
function repositoryFiles(root) {
  let listed;
  try {
    listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 64 * 1024 * 1024,
    })
      .split('\0')
      .filter(Boolean);
  } catch {
    listed = walk(root, '');
  }
  return [...new Set(listed)].filter(
    (path) => !path.startsWith('.ci/') && !path.split('/').includes('node_modules'),
  );
}

function walk(root, dir) {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : walk(root, path);
    return entry.isFile() ? [path] : [];
  });
}

/** Whether `target` is a file or folder of the repository at `root`, as a module path resolves. */
function insideRepository(root, target) {
  const rel = relative(root, target);
  if (rel.startsWith('..') || isAbsolute(rel)) return false;
  return MODULE_SUFFIXES.some((suffix) => existsSync(target + suffix));
}

/** Every path in the repository's files that leads into a `shared` folder outside it. */
export function sharedFolderReferences(repoDir) {
  const root = resolve(repoDir);
  const files = repositoryFiles(root);
  const found = [];
  for (const path of files) {
    const full = join(root, path);
    if (!existsSync(full) || !statSync(full).isFile()) continue;
    const bytes = readFileSync(full);
    if (bytes.includes(0)) continue;
    bytes
      .toString('utf8')
      .split('\n')
      .forEach((line, index) => {
        for (const [match] of line.matchAll(SHARED_PATH)) {
          const named = match.replace(/[.:]+$/, '');
          const target = isAbsolute(named) ? named : resolve(dirname(full), named);
          if (!insideRepository(root, target)) {
            found.push(`${path}:${index + 1}: '${named}' names a shared folder outside the repository`);
          }
        }
      });
  }
  return { files: files.length, problems: found };
}

/** Workspace package folders of the repository at `root`: packages/*, apps/*, tools/* with a package.json. */
function workspacePackages(root) {
  return ['packages', 'apps', 'tools'].flatMap((group) =>
    existsSync(join(root, group))
      ? readdirSync(join(root, group))
          .map((name) => join(root, group, name))
          .filter((dir) => existsSync(join(dir, 'package.json')))
      : [],
  );
}

function packageSourceFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (SKIPPED_DIRS.has(name)) return [];
    if (statSync(full).isDirectory()) return packageSourceFiles(full);
    return SOURCE.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

/** Every relative import, in any workspace package, that leaves the package it is written in. */
export function crossPackageImports(repoDir) {
  const rootDir = resolve(repoDir);
  const found = [];
  let count = 0;
  for (const pkg of workspacePackages(rootDir)) {
    for (const file of packageSourceFiles(pkg)) {
      count++;
      const text = readFileSync(file, 'utf8');
      for (const spec of new Set(IMPORTS.flatMap((re) => [...text.matchAll(re)].map((m) => m[2])))) {
        if (!spec.startsWith('.')) continue;
        // Only paths that name a module of the repository (a test's fixture text that merely
        // looks like an import names none).
        const resolved = resolve(dirname(file), spec);
        const target = relative(pkg, resolved);
        if ((target.startsWith('..') || isAbsolute(target)) && insideRepository(rootDir, resolved)) {
          found.push(
            `${relative(rootDir, file)}: imports '${spec}', a file outside ${relative(rootDir, pkg)} (import it by package name)`,
          );
        }
      }
    }
  }
  return { files: count, problems: found };
}

function parseArguments(args) {
  const packages = [];
  let standalone = null;
  let workspace = null;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--standalone') standalone = args[++i] ?? root;
    else if (args[i] === '--package-imports') workspace = args[++i] ?? root;
    else packages.push(args[i]);
  }
  if (packages.length === 0 && standalone === null && workspace === null)
    return { packages: [join(root, 'packages/domain')], standalone: root, workspace: root };
  return { packages, standalone, workspace };
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const { packages, standalone, workspace } = parseArguments(process.argv.slice(2));
  let failed = false;
  for (const dir of packages) {
    const { files, problems } = checkPackage(dir);
    if (problems.length > 0) {
      failed = true;
      console.error(`${shown(resolve(dir))} must stay pure:\n  ${problems.join('\n  ')}`);
    } else {
      console.log(`${shown(resolve(dir))}: pure (${files} source files, no dependencies)`);
    }
  }
  if (standalone !== null) {
    const { files, problems } = sharedFolderReferences(standalone);
    const name = shown(resolve(standalone)) || '.';
    if (problems.length > 0) {
      failed = true;
      console.error(`${name} must stand alone:\n  ${problems.join('\n  ')}`);
    } else if (files === 0) {
      failed = true;
      console.error(`${name}: no files to check`);
    } else {
      console.log(`${name}: stands alone (${files} files, no path into a shared folder outside it)`);
    }
  }
  if (workspace !== null) {
    const { files, problems } = crossPackageImports(workspace);
    const name = shown(resolve(workspace)) || '.';
    if (problems.length > 0) {
      failed = true;
      console.error(`${name}: packages import each other's files by relative path:\n  ${problems.join('\n  ')}`);
    } else {
      console.log(`${name}: every package imports others by name (${files} files)`);
    }
  }
  process.exit(failed ? 1 : 0);
}
