// Builds the release tarballs an outside project installs with npm, no registry of ours needed:
//   dist/packages/pis-sdk-<version>.tgz               @pis/sdk: the client and the webhook verifier
//   dist/packages/pis-webhook-verifier-<version>.tgz  @pis/webhook-verifier: the verifier alone
// Each is compiled from packages/sdk/src into a staging folder next to a manifest made for
// release (the runtime dependencies, which come from the npm registry, and nothing of the
// workspace: no scripts, no devDependencies, no `workspace:` or path ranges), then packed by
// `npm pack`. An integrator runs `npm install ./pis-sdk-<version>.tgz` in their own project.
//
// Usage: pnpm sdk:pack [outDir]   (default: dist/packages at the repository's root)
// Prints the path of each tarball, one a line.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
export const DEFAULT_OUT_DIR = join(packageDir, '../../dist/packages');

const sdk = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));

/** A release manifest: `entry` (in dist/) is the package's one entry point. */
const manifest = ({ name, description, entry, dependencies }) => ({
  name,
  version: sdk.version,
  description,
  license: sdk.license,
  main: `./dist/${entry}.js`,
  types: `./dist/${entry}.d.ts`,
  exports: {
    '.': { types: `./dist/${entry}.d.ts`, default: `./dist/${entry}.js` },
    './package.json': './package.json',
  },
  files: ['dist', 'README.md'],
  sideEffects: false,
  engines: sdk.engines,
  dependencies,
});

/** What is released: each package's manifest, the tsconfig that compiles it and its README (paths in packages/sdk). */
export const RELEASES = [
  {
    manifest: manifest({
      name: sdk.name,
      description: sdk.description,
      entry: 'index',
      dependencies: sdk.dependencies,
    }),
    tsconfig: 'tsconfig.build.json',
    readme: 'README.md',
  },
  {
    manifest: manifest({
      name: '@pis/webhook-verifier',
      description:
        "Typed verifier for the Reservation Provider Integration Service's webhooks: the verifier of @pis/sdk alone, for a receiver",
      entry: 'webhook',
      dependencies: { standardwebhooks: sdk.dependencies.standardwebhooks },
    }),
    tsconfig: 'webhook-verifier/tsconfig.json',
    readme: 'webhook-verifier/README.md',
  },
];

/** A range npm resolves from the registry; `workspace:`, `file:`, `link:`, git or URL ranges would not install elsewhere. */
const REGISTRY_RANGE = /^[\d^~<>=*xX |.-]+$|^[\w.-]+$/;

/** Compiles and packs one release into `outDir`; resolves with the tarball's path. */
async function pack({ manifest, tsconfig, readme }, outDir) {
  for (const [name, range] of Object.entries(manifest.dependencies)) {
    if (!REGISTRY_RANGE.test(range)) {
      throw new Error(`${manifest.name} would depend on ${name}@${range}, which no registry serves`);
    }
  }
  const stage = mkdtempSync(join(tmpdir(), 'pis-pack-'));
  try {
    await run(process.execPath, [tsc, '-p', join(packageDir, tsconfig), '--outDir', join(stage, 'dist')]);
    copyFileSync(join(packageDir, readme), join(stage, 'README.md'));
    writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const { stdout } = await run(
      'npm',
      ['pack', '--json', '--ignore-scripts', '--loglevel=error', '--pack-destination', outDir],
      { cwd: stage },
    );
    return join(outDir, JSON.parse(stdout)[0].filename);
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/** Builds every release into `outDir` (created when missing); resolves with the tarballs' paths. */
export async function packAll(outDir = DEFAULT_OUT_DIR) {
  mkdirSync(outDir, { recursive: true });
  return Promise.all(RELEASES.map((release) => pack(release, outDir)));
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  for (const tarball of await packAll(resolve(process.argv[2] ?? DEFAULT_OUT_DIR))) console.log(tarball);
}
