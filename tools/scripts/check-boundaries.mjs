// Keeps the hexagon's arrows pointing inwards: the domain package declares no dependencies
// and its sources import nothing but their own files, by relative path (no framework, ORM,
// queue, HTTP or validation library, not even `node:` built-ins). Tests (*.spec.*, *.test.*)
// may import test tools. Run by `pnpm lint` and by packages/domain/test/purity.spec.ts.
//
// Usage: node tools/scripts/check-boundaries.mjs [packageDir ...]   (default: packages/domain)
// Exit 0 and a one-line summary on stdout when pure; exit 1 naming every offence on stderr.
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

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const dirs = process.argv.length > 2 ? process.argv.slice(2) : [join(root, 'packages/domain')];
  let failed = false;
  for (const dir of dirs) {
    const { files, problems } = checkPackage(dir);
    if (problems.length > 0) {
      failed = true;
      console.error(`${shown(resolve(dir))} must stay pure:\n  ${problems.join('\n  ')}`);
    } else {
      console.log(`${shown(resolve(dir))}: pure (${files} source files, no dependencies)`);
    }
  }
  process.exit(failed ? 1 : 0);
}
