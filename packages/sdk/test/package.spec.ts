import { execFileSync, spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Harness } from '@pis/api/test/support/harness';

const packageDir = join(__dirname, '..');
const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
const tsc = require.resolve('typescript/bin/tsc');
const ROOT = join(packageDir, '../..');
const PUBLIC = [
  'ProviderApiError',
  'WebhookVerificationError',
  'createProviderClient',
  'readEventFeed',
  'verifyWebhook',
];

/**
 * The package as `npm pack` would ship it (the manifest's `files`, the build script's
 * output), laid out in a temp directory whose node_modules are the package's own.
 */
describe('the published package', () => {
  const root = mkdtempSync(join(tmpdir(), 'pis-sdk-package-'));
  beforeAll(() => {
    execFileSync(process.execPath, [
      tsc,
      '-p',
      join(packageDir, 'tsconfig.build.json'),
      '--outDir',
      join(root, 'dist'),
    ]);
    copyFileSync(join(packageDir, 'package.json'), join(root, 'package.json'));
    copyFileSync(join(packageDir, 'README.md'), join(root, 'README.md'));
    symlinkSync(join(packageDir, 'node_modules'), join(root, 'node_modules'));
  }, 60_000);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const node = (...args: string[]) => execFileSync(process.execPath, args, { cwd: root, encoding: 'utf8' });

  /** Runs `source` as an ES module in the package root; resolves with its stdout, rejects on a non-zero exit. */
  function nodeModule(source: string, env: Record<string, string>): Promise<string> {
    const child = spawn(process.execPath, ['--input-type=module'], {
      cwd: root,
      env: { ...process.env, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.stdin.end(source);
    return new Promise((resolve, reject) =>
      child.on('close', (code) =>
        code === 0 ? resolve(stdout) : reject(new Error(`exit ${code}: ${stderr}`)),
      ),
    );
  }

  /** The module the root README's SDK example feeds to node. */
  function readmeExample(): string {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const block = /<!-- sdk-example:start -->\s*```sh\n([\s\S]*?)```\s*<!-- sdk-example:end -->/.exec(readme);
    const script =
      block && /cd packages\/sdk && node --input-type=module <<'EOF'\n([\s\S]*?)\nEOF\n/.exec(block[1]!);
    if (!script) throw new Error('README.md has no SDK example block');
    return script[1]!;
  }

  it('When it is built, then main, types, exports and files name files that exist', () => {
    const entry = manifest.exports['.'];
    const named = [manifest.main, manifest.types, entry.types, entry.default, ...manifest.files];
    expect(named.filter((path: string) => !existsSync(join(root, path)))).toEqual([]);
  });

  it('When a CommonJS or an ES module consumer loads it by name, then both get the public API', () => {
    const listed =
      'console.log(JSON.stringify(Object.keys(sdk).filter((k) => k !== "default" && k !== "__esModule").sort()))';
    const required = node('-e', `const sdk = require('${manifest.name}'); ${listed}`);
    const imported = node('--input-type=module', '-e', `import * as sdk from '${manifest.name}'; ${listed}`);

    expect(JSON.parse(required)).toEqual(PUBLIC);
    expect(JSON.parse(imported)).toEqual(PUBLIC);
  });

  it('When a strict TypeScript consumer (node16 resolution) uses its types, then they check, and a wrong field is refused', () => {
    // One compiler run proves both: an unused @ts-expect-error is an error too.
    const consumer = `
      import { createProviderClient, ProviderApiError, type ErrorCode, type WebhookEvent } from '${manifest.name}';
      const sdk = createProviderClient({ baseUrl: 'https://pis.example.test', apiKey: 'k' });
      export const onEvent = (event: WebhookEvent): string =>
        event.type === 'table.freed' ? event.data.reason : event.type;
      export const onError = (error: unknown): ErrorCode | null =>
        error instanceof ProviderApiError ? error.code : null;
      const reservation = {
        externalId: 'r-1', status: 'confirmed', covers: 2,
        startsAt: '2026-11-21T19:00:00Z', updatedAt: '2026-11-20T10:00:00Z',
      } as const;
      export const created = sdk.createReservation(reservation);
      // @ts-expect-error covers is a number
      export const refused = sdk.createReservation({ ...reservation, covers: '2' });
    `;
    writeFileSync(join(root, 'consumer.ts'), consumer);
    const compilerOptions = {
      strict: true,
      module: 'node16',
      moduleResolution: 'node16',
      target: 'ES2022',
      lib: ['ES2022', 'DOM'],
      types: [],
      skipLibCheck: true,
      noEmit: true,
    };
    writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['consumer.ts'] }));

    const compiled = (() => {
      try {
        return node(tsc, '-p', 'tsconfig.json');
      } catch (error) {
        return String((error as { stdout?: string }).stdout);
      }
    })();

    expect(compiled).toBe('');
  }, 60_000);

  it("When the root README's SDK example runs against the API, then it prints the plan, the evening and a typed 404", async () => {
    const h = await Harness.start();
    try {
      const location = await h.location({ plan: 'published', tables: 3 });
      // Asynchronously: the API answering the example runs in this process.
      const out = await nodeModule(readmeExample(), { PIS: h.api.baseUrl, API_KEY: location.key });

      expect(out.split('\n')).toEqual([
        'published version 1 with 3 tables',
        '[]',
        expect.stringMatching(/^404 unknown_reservation \S/),
        '',
      ]);
    } finally {
      await h.stop();
    }
  }, 60_000);
});
