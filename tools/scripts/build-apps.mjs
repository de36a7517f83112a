// Bundles the deployable apps for `pnpm start` and `pnpm start:worker`: our TypeScript
// (every workspace package) compiled into one CommonJS file per app, third-party packages
// left to Node's loader. Running from a bundle instead of through tsx saves ~70 MiB per
// process (measured: 165 -> 95 MiB RSS at start for the API), which issue 5's memory
// target needs. Tests and development keep running the sources directly.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const APPS = [
  ['apps/api/src/main.ts', 'apps/api/dist/main.js'],
  ['apps/worker/src/main.ts', 'apps/worker/dist/main.js'],
];

/**
 * With pnpm's isolated node_modules a third-party package is only resolvable from the
 * workspace package that declares it, so each one is resolved where it is imported and
 * the bundle requires it by that absolute path. The bundle is built on the machine that
 * runs it (by the start command), so absolute paths are right.
 */
const externalsWhereImported = {
  name: 'externals-where-imported',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@pis/') || args.path.startsWith('node:')) return undefined;
      const require = createRequire(join(args.resolveDir, 'noop.js'));
      try {
        return { path: require.resolve(args.path), external: true };
      } catch {
        return { path: args.path, external: true };
      }
    });
  },
};

const targets = process.argv.slice(2);
await Promise.all(
  APPS.filter(([entry]) => targets.length === 0 || targets.some((t) => entry.startsWith(t))).map(([entry, out]) =>
    build({
      entryPoints: [join(root, entry)],
      outfile: join(root, out),
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      keepNames: true,
      logLevel: 'warning',
      plugins: [externalsWhereImported],
    }),
  ),
);
