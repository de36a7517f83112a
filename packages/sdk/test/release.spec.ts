import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { waitUntil } from '@pis/api/test/support/deployment';
import { Harness } from '@pis/api/test/support/harness';

const run = promisify(execFile);
const ROOT = join(__dirname, '../../..');
const version: string = JSON.parse(readFileSync(join(__dirname, '../package.json'), 'utf8')).version;
const tsc = require.resolve('typescript/bin/tsc');

/** npm as an integrator runs it: none of the `npm_*` settings pnpm hands to the scripts it runs. */
const npmEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));

/** A strict consumer resolving packages as Node does; `@types/node` from this repository, so nothing else is installed. */
const tsconfig = (program: string) => ({
  compilerOptions: {
    strict: true,
    module: 'node16',
    moduleResolution: 'node16',
    target: 'ES2022',
    lib: ['ES2022'],
    types: ['node'],
    typeRoots: [join(ROOT, 'node_modules/@types')],
    skipLibCheck: false,
    outDir: 'build',
  },
  files: [program],
});

/**
 * An ES module using the client: registers the receiver, stores the secret where the
 * receiver reads it, tests the receiver, drives the sandbox's till and meets a typed refusal.
 */
const CLIENT = `
import { writeFileSync } from 'node:fs';
import { createProviderClient, ProviderApiError, type ReservationRequest } from '@pis/sdk';

const { PIS, API_KEY, RECEIVER_URL, SECRET_FILE } = process.env as Record<string, string>;
const pis = createProviderClient({ baseUrl: PIS, apiKey: API_KEY });

const endpoint = await pis.putWebhookEndpoint({ url: RECEIVER_URL });
const secret: string = endpoint.secret; // always in the answer: typed so, no \`!\` needed
writeFileSync(SECRET_FILE, secret, { mode: 0o600 });

const test = await pis.testWebhookEndpoint();
console.log('test', test.delivered, test.status);
const { version } = await pis.sandbox.publishFloorPlan();
const [table] = (await pis.getFloorPlan()).rooms.flatMap((room) => room.tables);
const walkIn = await pis.sandbox.openWalkInOrder({ tableIds: [table!.id], covers: 2 });
console.log('published', version, 'walk-in', walkIn.status);

const reservation: ReservationRequest = {
  externalId: 'r-1', status: 'seated', covers: 2, startsAt: '2026-11-21T19:00+01:00',
  tableIds: [table!.id], updatedAt: new Date().toISOString(),
};
try {
  await pis.createReservation(reservation);
} catch (error) {
  if (!(error instanceof ProviderApiError)) throw error;
  console.log('refused', error.status, error.code, error.occupiedBy?.orderId === walkIn.id);
}
// @ts-expect-error covers is a number (an unused expectation fails the compile: the types are not \`any\`)
export const refused = () => pis.createReservation({ ...reservation, covers: '2' });
`;

/** A CommonJS receiver with the verifier alone; it reads the secret on every request, so a rotation needs no restart. */
const RECEIVER = `
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook, WebhookVerificationError, type WebhookEvent } from '@pis/webhook-verifier';

function summary(event: WebhookEvent): string {
  switch (event.type) {
    case 'webhook.test':
      return event.type;
    case 'table.occupied':
      return \`\${event.type} \${event.data.locationEventSequence} \${event.data.reservationExternalId ?? 'walk-in'}\`;
    default:
      return \`\${event.type} \${event.data.locationEventSequence}\`;
  }
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    try {
      const secret = readFileSync(process.env.SECRET_FILE!, 'utf8');
      console.log('verified', summary(verifyWebhook(secret, Buffer.concat(chunks), req.headers)));
      res.writeHead(204).end();
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      console.log('rejected', error.name);
      res.writeHead(400).end();
    }
  });
});
server.listen(0, '127.0.0.1', () => console.log('listening', (server.address() as AddressInfo).port));
`;

/** The script of the root README's SDK example, and the shell lines around it. */
function readmeExample(): { shell: string; script: string } {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = /<!-- sdk-example:start -->\s*```sh\n([\s\S]*?)```\s*<!-- sdk-example:end -->/.exec(readme);
  const script = block && /node --input-type=module <<'EOF'\n([\s\S]*?)\nEOF\n/.exec(block[1]!);
  if (!script) throw new Error('README.md has no SDK example block');
  return { shell: block[1]!.replace(script[0], ''), script: script[1]! };
}

/**
 * The release as an integrator gets it: `pnpm sdk:pack` builds the tarballs, npm installs
 * each into an empty project outside the repository (dependencies from the registry), a
 * strict TypeScript compile checks a program against each, and both run against the API.
 */
describe('the release tarballs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pis-sdk-release-'));
  const client = join(dir, 'client');
  const receiver = join(dir, 'receiver');
  let tarballs: string[] = [];
  const compiled = new Map<string, string>();

  /** An empty project in `project` with `tarball` installed by npm and `program` compiled; the compiler's output is kept. */
  async function consumer(project: string, type: string, tarball: string, program: string, source: string) {
    mkdirSync(project);
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: basename(project), private: true, type }),
    );
    await run(
      'npm',
      ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', tarball],
      {
        cwd: project,
        env: npmEnv,
      },
    );
    writeFileSync(join(project, program), source);
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(tsconfig(program)));
    const output = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: project }).then(
      ({ stdout }) => stdout,
      (error: { stdout?: string; message: string }) => error.stdout || error.message,
    );
    compiled.set(project, output);
  }

  let h: Harness;
  let receiving: ChildProcess | undefined;
  beforeAll(async () => {
    // The API starts while the tarballs are built and installed (its failure is awaited below).
    const api = Harness.start();
    api.catch(() => undefined);
    try {
      const packed = await run('pnpm', ['--silent', 'sdk:pack', join(dir, 'out')], {
        cwd: ROOT,
        env: npmEnv,
      });
      tarballs = packed.stdout.trim().split('\n');
      await Promise.all([
        consumer(client, 'module', tarballs[0]!, 'client.ts', CLIENT),
        consumer(receiver, 'commonjs', tarballs[1]!, 'receiver.ts', RECEIVER),
      ]);
    } finally {
      h = await api;
    }
    await h.runtime.start();
  }, 120_000);
  afterAll(async () => {
    receiving?.kill();
    await h?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const installed = (project: string, name: string) =>
    JSON.parse(readFileSync(join(project, 'node_modules', name, 'package.json'), 'utf8'));

  it('When `pnpm sdk:pack` runs, then it writes one tarball per package, named by the version the docs give', () => {
    expect(tarballs.map((path) => basename(path))).toEqual([
      `pis-sdk-${version}.tgz`,
      `pis-webhook-verifier-${version}.tgz`,
    ]);
    // A version bump that leaves a document naming the old file fails here.
    const installLines: Record<string, string> = {
      'README.md': `npm install ./pis-sdk-${version}.tgz`,
      'packages/sdk/README.md': `npm install ./vendor/pis-sdk-${version}.tgz`,
      'packages/sdk/webhook-verifier/README.md': `npm install ./vendor/pis-webhook-verifier-${version}.tgz`,
    };
    const stale = Object.entries(installLines).filter(([file, line]) => {
      const text = readFileSync(join(ROOT, file), 'utf8');
      return !text.includes(line) || !text.includes('pnpm sdk:pack');
    });
    expect(stale).toEqual([]);
  });

  it('When npm installs them, then each manifest names only registry dependencies, and the verifier brings no client', () => {
    const sdk = installed(client, '@pis/sdk');
    const verifier = installed(receiver, '@pis/webhook-verifier');
    for (const manifest of [sdk, verifier]) {
      expect(manifest).toMatchObject({ version, main: expect.any(String), types: expect.any(String) });
      expect(Object.keys(manifest)).not.toEqual(
        expect.arrayContaining([expect.stringMatching(/^(devDependencies|scripts|private|workspaces)$/)]),
      );
      expect(Object.values(manifest.dependencies)).toEqual(
        Object.values(manifest.dependencies).map(() => expect.stringMatching(/^\^\d+\.\d+\.\d+$/)),
      );
    }
    expect(Object.keys(sdk.dependencies).sort()).toEqual(['openapi-fetch', 'standardwebhooks']);
    expect(Object.keys(verifier.dependencies)).toEqual(['standardwebhooks']);
    expect(() => installed(receiver, 'openapi-fetch')).toThrow(/ENOENT/);
  });

  it('When a strict TypeScript consumer compiles a program against each, then it checks (a wrong field is refused)', () => {
    expect({ client: compiled.get(client), receiver: compiled.get(receiver) }).toEqual({
      client: '',
      receiver: '',
    });
  });

  it('When a CommonJS or an ES module consumer loads each by name, then both get its public API', async () => {
    const listed = (name: string, how: 'require' | 'import') =>
      run(
        process.execPath,
        [
          '--input-type=' + (how === 'require' ? 'commonjs' : 'module'),
          '-e',
          (how === 'require' ? `const m = require('${name}');` : `import * as m from '${name}';`) +
            'console.log(Object.keys(m).filter((k) => k !== "default" && k !== "__esModule").sort().join(" "))',
        ],
        { cwd: name === '@pis/sdk' ? client : receiver },
      ).then(({ stdout }) => stdout.trim());
    const sdk = 'ProviderApiError WebhookVerificationError createProviderClient readEventFeed verifyWebhook';
    const verifier = 'WebhookVerificationError verifyWebhook';

    expect(
      await Promise.all([
        listed('@pis/sdk', 'require'),
        listed('@pis/sdk', 'import'),
        listed('@pis/webhook-verifier', 'require'),
        listed('@pis/webhook-verifier', 'import'),
      ]),
    ).toEqual([sdk, sdk, verifier, verifier]);
  });

  describe('against a started API', () => {
    it('When the compiled client drives a sandbox location, then it answers as typed and the verifier-only receiver verifies every webhook', async () => {
      const location = await h.location({ sandbox: true, plan: 'draft', tables: 2 });
      const secretFile = join(dir, 'webhook-secret');
      let received = '';
      receiving = spawn(process.execPath, ['build/receiver.js'], {
        cwd: receiver,
        env: { ...process.env, SECRET_FILE: secretFile },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      receiving.stdout!.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
      await waitUntil('the receiver to listen', async () => received.includes('listening'));
      const origin = `http://127.0.0.1:${/listening (\d+)/.exec(received)![1]}`;

      const { stdout } = await run(process.execPath, ['build/client.js'], {
        cwd: client,
        env: {
          ...process.env,
          PIS: h.api.baseUrl,
          API_KEY: location.key,
          RECEIVER_URL: `${origin}/hooks`,
          SECRET_FILE: secretFile,
        },
      });
      expect(stdout.split('\n')).toEqual([
        'test true 204',
        'published 1 walk-in open',
        'refused 409 table_occupied true',
        '',
      ]);

      const wanted = [
        'verified webhook.test',
        'verified floorplan.published 1',
        'verified table.occupied 2 walk-in',
      ];
      await waitUntil('the webhooks', async () =>
        wanted.every((line) => received.split('\n').includes(line)),
      );
      const forged = new Webhook(`whsec_${randomBytes(24).toString('base64')}`);
      const body = JSON.stringify({ type: 'webhook.test', timestamp: new Date().toISOString(), data: {} });
      const headers = {
        'webhook-id': 'msg_forged',
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
      };
      const answer = await fetch(`${origin}/hooks`, {
        method: 'POST',
        headers: { ...headers, 'webhook-signature': forged.sign('msg_forged', new Date(), body) },
        body,
      });

      expect(answer.status).toBe(400);
      await waitUntil('the refusal', async () => received.includes('rejected'));
      // At least once: a delivery may come twice, so the lines are compared as a set.
      const lines = new Set(received.split('\n').filter((line) => /^(verified|rejected)/.test(line)));
      expect([...lines].sort()).toEqual([...wanted, 'rejected WebhookVerificationError'].sort());
    });

    it("When the root README's SDK example runs in the installed project, then it prints the plan, the evening and a typed 404", async () => {
      const location = await h.location({ plan: 'published', tables: 3 });
      const { shell, script } = readmeExample();
      expect(shell).toContain('pnpm sdk:pack');
      expect(shell).toContain(`npm install ./pis-sdk-${version}.tgz`);
      writeFileSync(join(client, 'readme-example.mjs'), script);

      const { stdout } = await run(process.execPath, ['readme-example.mjs'], {
        cwd: client,
        env: { ...process.env, PIS: h.api.baseUrl, API_KEY: location.key },
      });
      expect(stdout.split('\n')).toEqual([
        'published version 1 with 3 tables',
        '[]',
        expect.stringMatching(/^404 unknown_reservation \S/),
        '',
      ]);
    });
  });
});
