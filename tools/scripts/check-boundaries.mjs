// Keeps the hexagon's arrows pointing inwards: packages/domain imports nothing but
// itself and node: built-ins... and not even those it does not need. Run by `pnpm lint`
// and by packages/domain/test/purity.spec.ts.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;

export function forbiddenImports(dir) {
  const found = [];
  const walk = (d) => {
    for (const name of readdirSync(d)) {
      const full = join(d, name);
      if (name === 'node_modules') continue;
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.ts') && !name.endsWith('.spec.ts')) {
        const text = readFileSync(full, 'utf8');
        for (const m of text.matchAll(/(?:from\s+|require\(\s*|import\(\s*)['"]([^'"]+)['"]/g)) {
          const spec = m[1];
          if (!spec.startsWith('.')) found.push(`${relative(root, full)}: ${spec}`);
        }
      }
    }
  };
  walk(dir);
  return found;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop())) {
  const pkg = JSON.parse(readFileSync(join(root, 'packages/domain/package.json'), 'utf8'));
  const problems = forbiddenImports(join(root, 'packages/domain/src'));
  if (Object.keys(pkg.dependencies ?? {}).length > 0) problems.push('packages/domain/package.json has dependencies');
  if (problems.length) {
    console.error('packages/domain must stay pure:\n' + problems.join('\n'));
    process.exit(1);
  }
}
