// Bundles the deployable apps: our TypeScript (every workspace package) compiled into one
// CommonJS file per app, third-party packages left to Node's loader. `pnpm build` builds
// both (production runs `node apps/api/dist/main.js` with no install or build at start);
// `pnpm start` and `pnpm start:worker` build the one they run. Running from a bundle
// instead of through tsx saves ~70 MiB per process (measured: 165 -> 95 MiB RSS at start
// for the API), which the memory target needs. Tests and development run the sources.
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { bundleConsole } from '@pis/console';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const APPS = [
  ['apps/api/src/main.ts', 'apps/api/dist/main.js'],
  ['apps/worker/src/main.ts', 'apps/worker/dist/main.js'],
];

/**
 * With pnpm's isolated node_modules a third-party package is only resolvable from the
 * workspace package that declares it, so each one is resolved where it is imported and
 * the bundle requires it by its path relative to the bundle: the built tree (bundles and
 * node_modules together) runs wherever it is copied, with nothing resolved at start.
 */
function externalsWhereImported(outDir) {
  return {
    name: 'externals-where-imported',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith('@pis/') || args.path.startsWith('node:')) return undefined;
        const require = createRequire(join(args.resolveDir, 'noop.js'));
        let resolved;
        try {
          resolved = require.resolve(args.path);
        } catch {
          return { path: args.path, external: true };
        }
        // A Node built-in imported without `node:` resolves to its own name.
        if (!resolved.includes(sep)) return { path: args.path, external: true };
        const path = relative(outDir, resolved).split(sep).join('/');
        return { path: path.startsWith('.') ? path : `./${path}`, external: true };
      });
    },
  };
}

const targets = process.argv.slice(2);
const chosen = APPS.filter(([entry]) => targets.length === 0 || targets.some((t) => entry.startsWith(t)));
// The operator console's script and stylesheet go into the API's bundle (read by
// packages/http/src/console/console-assets.ts), so the API serves them without a bundler.
const consoleAssets = chosen.some(([entry]) => entry.startsWith('apps/api')) ? await bundleConsole() : null;
await Promise.all(
  chosen.map(([entry, out]) =>
    build({
      entryPoints: [join(root, entry)],
      outfile: join(root, out),
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      keepNames: true,
      logLevel: 'warning',
      plugins: [externalsWhereImported(dirname(join(root, out)))],
      ...(entry.startsWith('apps/api') ? { define: { PIS_CONSOLE_ASSETS: JSON.stringify(consoleAssets) } } : {}),
    }),
  ),
);
