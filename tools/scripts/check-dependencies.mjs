// The map of the hexagon, checked by `pnpm lint`: which workspace packages each package may
// depend on, that a package's sources import only what it declares in `dependencies`, and
// that everything it declares there is used. Adapters depend on the domain (and the wire
// contract, and the webhook pipeline's storage ports in `@pis/ports`), never on each other;
// only the apps know every package. A devDependency serves tests only: importing one from
// `src` would work in the workspace and break for anyone who
// installs the package. A dependency nothing imports is weight every install carries, and
// one only tests import belongs in `devDependencies`.
//
// No workspace package depends on itself through others, devDependencies included: pnpm warns
// of such a cycle on every install (and so on every `pnpm start`) and can no longer order the
// packages' scripts.
//
// Usage: node tools/scripts/check-dependencies.mjs [repoDir]
// Exit 0 with one summary line; exit 1 naming every offence on stderr.
import { builtinModules } from 'node:module';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Workspace packages each package may depend on; a package not listed here may depend on any. */
export const ALLOWED_WORKSPACE_DEPENDENCIES = {
  'packages/domain': [],
  'packages/contract': ['@pis/domain'],
  'packages/ports': ['@pis/domain'],
  'packages/testing': ['@pis/domain', '@pis/ports'],
  'packages/runtime': ['@pis/domain', '@pis/ports'],
  'packages/persistence': ['@pis/domain', '@pis/ports'],
  'packages/http': ['@pis/domain', '@pis/contract', '@pis/console'],
  'packages/webhooks': ['@pis/domain', '@pis/contract', '@pis/ports'],
  'packages/sdk': [],
};

const SOURCE = /\.(?:ts|tsx|mts|cts|js|mjs|cjs)$/;
const TEST = /\.(?:spec|test)\.[a-z]+$/;
const IMPORTS = [
  /\bfrom\s*(['"])([^'"\n]+)\1/g,
  /^\s*import\s*(['"])([^'"\n]+)\1/gm,
  /\brequire\s*\(\s*(['"`])([^'"`\n]+)\1\s*\)/g,
  /\bimport\s*\(\s*(['"`])([^'"`\n]+)\1/g,
];
const BUILTINS = new Set(builtinModules);
/** What a package specifier looks like; anything else the patterns caught is prose. */
const SPECIFIER = /^(?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*(?:\/[\w./-]*)?$/;

function sourceFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return SOURCE.test(name) && !TEST.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

/**
 * Every script of a package (its `src`, and files beside it such as a bundling script), as
 * `shipped` or `tests`: a `test` folder or a `*.spec.*` file is a test.
 */
function packageFiles(dir, underTest = false) {
  const found = { shipped: [], tests: [] };
  if (!existsSync(dir)) return found;
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    if (statSync(full).isDirectory()) {
      const inner = packageFiles(full, underTest || name === 'test');
      found.shipped.push(...inner.shipped);
      found.tests.push(...inner.tests);
    } else if (SOURCE.test(name) && !name.endsWith('.d.ts')) {
      (underTest || TEST.test(name) ? found.tests : found.shipped).push(full);
    }
  }
  return found;
}

/** The packages `file` imports (type-only imports included), by package name. */
function importedPackages(file) {
  const text = withoutComments(readFileSync(file, 'utf8'));
  return IMPORTS.flatMap((re) => [...text.matchAll(re)].map((m) => m[2]))
    .filter((spec) => SPECIFIER.test(spec))
    .map(packageOf);
}

/** Comments say things like "tells A from 'B'"; only code imports. (A `//` inside a string ends a line early, which no import needs.) */
const withoutTypeImports = (text) =>
  text.replace(/^\s*(?:import|export)\s+type\s[^;]*?from\s*(['"])[^'"\n]+\1;?/gm, '');

const withoutComments = (text) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');

/** `@scope/name/sub` -> `@scope/name`, `name/sub` -> `name`. */
const packageOf = (spec) =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');

/** Every offence of the package in `dir` (relative to `repo` as `rel`). */
export function checkDependencies(repo, rel) {
  const dir = join(repo, rel);
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const declared = new Set([
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
  ]);
  const problems = [];
  const allowed = ALLOWED_WORKSPACE_DEPENDENCIES[rel];
  if (allowed) {
    for (const name of declared) {
      if (name.startsWith('@pis/') && !allowed.includes(name)) {
        problems.push(
          `${rel}/package.json: depends on ${name}; ${rel} may depend on ${allowed.join(', ') || 'no workspace package'}`,
        );
      }
    }
  }
  for (const file of sourceFiles(join(dir, 'src'))) {
    // Type-only imports vanish at build time: a package may take types from a devDependency.
    const text = withoutTypeImports(withoutComments(readFileSync(file, 'utf8')));
    for (const spec of new Set(IMPORTS.flatMap((re) => [...text.matchAll(re)].map((m) => m[2])))) {
      if (!SPECIFIER.test(spec) || spec.startsWith('node:') || BUILTINS.has(packageOf(spec))) continue;
      const name = packageOf(spec);
      if (name === manifest.name) continue;
      if (!declared.has(name)) {
        problems.push(
          `${relative(repo, file)}: imports '${spec}', which ${rel} does not declare in dependencies`,
        );
      }
    }
  }
  problems.push(...unusedDependencies(dir, rel, manifest));
  return problems;
}

/** Every name of `dependencies` that no shipped file of the package imports. */
function unusedDependencies(dir, rel, manifest) {
  const files = packageFiles(dir);
  const shipped = new Set(files.shipped.flatMap(importedPackages));
  const tested = new Set(files.tests.flatMap(importedPackages));
  const problems = [];
  for (const name of Object.keys(manifest.dependencies ?? {})) {
    if (shipped.has(name)) continue;
    problems.push(
      tested.has(name)
        ? `${rel}/package.json: only tests import ${name}; move it to devDependencies`
        : `${rel}/package.json: depends on ${name}, which no source of ${rel} imports`,
    );
  }
  return problems;
}

export function workspacePackages(repo) {
  return ['packages', 'apps', 'tools'].flatMap((group) =>
    existsSync(join(repo, group))
      ? readdirSync(join(repo, group))
          .filter((name) => existsSync(join(repo, group, name, 'package.json')))
          .map((name) => `${group}/${name}`)
      : [],
  );
}

/** A cycle among the workspace packages of `repo` (dependencies and devDependencies), as `a -> b -> a`; null when none. */
export function workspaceCycle(repo, packages) {
  const manifests = packages.map((rel) => JSON.parse(readFileSync(join(repo, rel, 'package.json'), 'utf8')));
  const names = new Set(manifests.map((m) => m.name));
  const edges = new Map(
    manifests.map((m) => [
      m.name,
      Object.keys({ ...m.dependencies, ...m.devDependencies, ...m.peerDependencies }).filter((d) =>
        names.has(d),
      ),
    ]),
  );
  const done = new Set();
  const path = [];
  const visit = (name) => {
    const at = path.indexOf(name);
    if (at >= 0) return [...path.slice(at), name];
    if (done.has(name)) return null;
    path.push(name);
    for (const next of edges.get(name) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    done.add(name);
    return null;
  };
  for (const name of [...names].sort()) {
    const cycle = visit(name);
    if (cycle) return cycle.join(' -> ');
  }
  return null;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const repo = resolve(process.argv[2] ?? fileURLToPath(new URL('../..', import.meta.url)));
  const packages = workspacePackages(repo);
  const problems = packages.flatMap((rel) => checkDependencies(repo, rel));
  const cycle = workspaceCycle(repo, packages);
  if (cycle) {
    problems.push(
      `workspace packages depend on each other in a cycle (devDependencies included; pnpm warns of it on every install): ${cycle}`,
    );
  }
  if (problems.length > 0) {
    console.error(`dependency boundaries broken:\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  console.log(
    `dependencies: ${packages.length} packages import only what they declare and use all of it, adapters only the domain and the contract, no cycle`,
  );
}
