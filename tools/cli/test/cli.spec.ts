import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@pis/persistence/test-support';
import { createApiRuntime } from '@pis/api';
import { componentSchemas, createAjv } from '@pis/contract';
import { authenticate, importFloorPlan } from '@pis/domain';
import { createLogger, loadConfig } from '@pis/runtime';
import { runCli } from '../src/run-cli';

jest.setTimeout(60_000);

describe('the operator CLI on PostgreSQL', () => {
  let db: TestDatabase;
  let env: NodeJS.ProcessEnv;
  const cli = async (...argv: string[]) => {
    const result = await runCli(argv, env);
    return {
      ...result,
      body: result.stdout ? JSON.parse(result.stdout) : JSON.parse(result.stderr || 'null'),
    };
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    env = { DATABASE_URL: db.url, BACKOFFICE_TOKEN: 'cli-test-backoffice-token', LOG_LEVEL: 'silent' };
  });
  afterAll(async () => db.drop());

  it('When an operator creates a location and issues a key, then the key has the brand prefix and can be revoked', async () => {
    const location = await cli('location', 'create', '--name', 'Chez CLI', '--brand', 'chez');
    expect(location.code).toBe(0);
    expect(location.body).toEqual({
      id: expect.any(String),
      name: 'Chez CLI',
      brand: 'chez',
      currency: 'EUR',
      sandbox: false,
    });

    const key = await cli('key', 'issue', '--location', location.body.id);
    expect(key.code).toBe(0);
    expect(key.body.key).toMatch(/^chez_sk_live_[A-Za-z0-9]{32,}$/);

    const revoked = await cli('key', 'revoke', '--location', location.body.id, '--key', key.body.id);
    expect(revoked.code).toBe(0);
    // Revoking is idempotent; a key the location does not hold is not_found.
    expect((await cli('key', 'revoke', '--location', location.body.id, '--key', key.body.id)).code).toBe(0);
    const unknown = await cli('key', 'revoke', '--location', location.body.id, '--key', location.body.id);
    expect(unknown.code).toBe(1);
    expect(unknown.body.error.code).toBe('not_found');
  });

  it('When a command runs, then it builds only what it needs: the database and the schema it checks, not the API (whose validator compiles every schema)', async () => {
    // Every ajv compilation of this process, by the contract's validator or any other.
    let proto: object | null = createAjv();
    while (proto !== null && !Object.prototype.hasOwnProperty.call(proto, 'compile')) {
      proto = Object.getPrototypeOf(proto);
    }
    const compile = jest.spyOn(proto as { compile: (schema: object) => unknown }, 'compile');
    try {
      const location = await cli('location', 'create', '--name', 'Lean', '--brand', 'lean');
      const compiledForCreate = compile.mock.calls.length;
      const orders = await cli('orders', 'list', '--location', location.body.id, '--status', 'open');

      expect([location.code, orders.code]).toEqual([0, 0]);
      // One request schema each: LocationCreateRequest, then OrderListQuery.
      expect([compiledForCreate, compile.mock.calls.length]).toEqual([1, 2]);

      // The API's runtime, for comparison, compiles the whole contract before it answers anything.
      compile.mockClear();
      const config = loadConfig({ ...env, REDIS_URL: '' });
      const api = await createApiRuntime(config, createLogger('silent'));
      await api.stop();
      expect(compile.mock.calls.length).toBe(Object.keys(componentSchemas).length);
    } finally {
      compile.mockRestore();
    }
  });

  it('When input is invalid, then the CLI answers the contract envelope on stderr with exit code 1', async () => {
    const result = await cli('location', 'create', '--name', 'X', '--brand', 'UPPER');
    expect(result.code).toBe(1);
    expect(result.body.error).toMatchObject({ code: 'validation_failed', occupiedBy: null });
    expect(result.body.error.details).toEqual([{ path: '/brand', message: expect.any(String) }]);
  });

  it('When a sandbox location is created, then its keys are test keys', async () => {
    const location = await cli('location', 'create', '--name', 'Try', '--brand', 'chez', '--sandbox');
    const key = await cli('key', 'issue', '--location', location.body.id);

    expect(location.body.sandbox).toBe(true);
    expect(key.body.key).toMatch(/^chez_sk_test_[A-Za-z0-9]{32,}$/);
  });

  it('When help is asked for, then usage goes to stdout with exit code 0, for the CLI and for one command', async () => {
    for (const flag of ['--help', '-h', 'help']) {
      const help = await runCli([flag], env);
      expect(help).toEqual({
        code: 0,
        stdout: expect.stringContaining('pnpm cli location create'),
        stderr: '',
      });
    }
    const asProcess = spawnSync(process.execPath, ['--import', 'tsx', 'tools/cli/src/main.ts', '--help'], {
      cwd: join(__dirname, '../../..'),
      encoding: 'utf8',
    });
    expect({ status: asProcess.status, stdout: asProcess.stdout }).toEqual({
      status: 0,
      stdout: expect.stringContaining('pnpm cli key issue'),
    });
    const one = await runCli(['orders', 'open', '--help'], env);
    expect(one).toEqual({
      code: 0,
      stdout: expect.stringMatching(/^usage: pnpm cli orders open --location/),
      stderr: '',
    });
  });

  it('When the command is unknown, then the error names it, with usage and exit code 2', async () => {
    const unknown = await runCli(['orders', 'reopen', '--location', 'x'], env);
    const typo = await runCli(['locaton'], env);

    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^unknown command "orders reopen"\n/);
    expect(unknown.stderr).toContain('pnpm cli orders open');
    expect(typo.stderr).toMatch(/^unknown command "locaton"/);
  });

  it('When a command or a required id is missing, then usage is printed with exit code 2', async () => {
    expect((await runCli([], env)).code).toBe(2);
    expect((await runCli(['nope'], env)).code).toBe(2);
    const missing = await runCli(['orders', 'list'], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('missing --location');
  });

  it('When a location has no published plan, then publishing and orders are refused with the contract codes', async () => {
    const location = (await cli('location', 'create', '--name', 'Till', '--brand', 'till')).body;
    expect((await cli('floorplan', 'publish', '--location', location.id)).body.error.code).toBe(
      'validation_failed',
    );
    const plan = await cli('floorplan', 'show', '--location', location.id);
    expect(plan.body).toMatchObject({ status: 'empty', rooms: [] });

    // No tables before a plan is published: the order is refused with the contract's code.
    const refused = await cli(
      'orders',
      'open',
      '--location',
      location.id,
      '--tables',
      '01a20ecd-098a-71e9-936f-5878e0b8ce8a',
      '--covers',
      '2',
    );
    expect(refused.body.error.code).toBe('floorplan_not_published');

    const listed = await cli('orders', 'list', '--location', location.id, '--status', 'open');
    expect(listed.body).toEqual({ orders: [] });
    const badStatus = await cli('orders', 'list', '--location', location.id, '--status', 'paid');
    expect(badStatus.body.error.code).toBe('validation_failed');
  });

  it('When the till works through the CLI, then walk-in orders open, take items, move, close and list', async () => {
    const location = (await cli('location', 'create', '--name', 'Till', '--brand', 'tilltwo')).body;
    const key = (await cli('key', 'issue', '--location', location.id)).body.key;
    const tableIds = await importThroughApi(env, key, 3);
    expect((await cli('floorplan', 'publish', '--location', location.id)).body).toEqual({
      version: 1,
      publishedAt: expect.any(String),
    });

    const opened = await cli(
      'orders',
      'open',
      '--location',
      location.id,
      '--tables',
      tableIds[0]!,
      '--covers',
      '2',
    );
    expect(opened.body).toMatchObject({ tableIds: [tableIds[0]], covers: 2, status: 'open', spendMinor: 0 });
    const orderId = opened.body.id;
    const taken = await cli(
      'orders',
      'open',
      '--location',
      location.id,
      '--tables',
      tableIds[0]!,
      '--covers',
      '2',
    );
    expect(taken.body.error).toMatchObject({
      code: 'table_occupied',
      occupiedBy: { orderId, reservationExternalId: null },
    });

    const item = await cli(
      'orders',
      'add-item',
      '--location',
      location.id,
      '--order',
      orderId,
      '--label',
      'Wine',
      '--amount',
      '1250',
      '--quantity',
      '2',
    );
    expect(item.body.spendMinor).toBe(2500);
    const moved = await cli(
      'orders',
      'move',
      '--location',
      location.id,
      '--order',
      orderId,
      '--tables',
      `${tableIds[1]},${tableIds[2]}`,
    );
    expect(moved.body.tableIds).toEqual([tableIds[1], tableIds[2]]);
    const closed = await cli('orders', 'close', '--location', location.id, '--order', orderId);
    expect(closed.body).toMatchObject({ status: 'closed', closedAt: expect.any(String) });

    expect((await cli('orders', 'list', '--location', location.id, '--status', 'open')).body).toEqual({
      orders: [],
    });
    const all = (await cli('orders', 'list', '--location', location.id)).body.orders;
    expect(all.map((o: { id: string }) => o.id)).toEqual([orderId]);
  });

  it('When events are tailed, then the newest come by default, --after resumes after a sequence, --types filters, and a bad parameter is the envelope', async () => {
    const location = (await cli('location', 'create', '--name', 'Feed', '--brand', 'feed')).body;
    const key = (await cli('key', 'issue', '--location', location.id)).body.key;
    const tableIds = await importThroughApi(env, key, 2);
    await cli('floorplan', 'publish', '--location', location.id);
    const opened = (
      await cli('orders', 'open', '--location', location.id, '--tables', tableIds[0]!, '--covers', '2')
    ).body;
    await cli('orders', 'close', '--location', location.id, '--order', opened.id);
    const seq = (page: { events: { data: { locationEventSequence: number } }[] }) =>
      page.events.map((e) => e.data.locationEventSequence);

    const all = (await cli('events', 'tail', '--location', location.id, '--after', '0')).body;
    const newest = (await cli('events', 'tail', '--location', location.id, '--limit', '2')).body;
    const closed = (
      await cli('events', 'tail', '--location', location.id, '--after', '0', '--types', 'order.closed')
    ).body;
    const bad = await cli('events', 'tail', '--location', location.id, '--limit', '0');

    expect(all.events.map((e: { type: string }) => e.type)).toEqual([
      'floorplan.published',
      'table.occupied',
      'table.freed',
      'order.closed',
    ]);
    expect(seq(all)).toEqual([1, 2, 3, 4]);
    expect(seq(newest)).toEqual([3, 4]);
    expect(newest.hasMore).toBe(false);
    expect(closed.events).toEqual([all.events[3]]);
    expect(bad.code).toBe(1);
    expect(bad.body.error).toMatchObject({
      code: 'validation_failed',
      details: [{ path: '/limit', message: expect.any(String) }],
    });
  });

  it('When the till writes a check through the CLI, then items with tax, voids, discounts, payments with tips and the service status land on it', async () => {
    const location = (await cli('location', 'create', '--name', 'Check', '--brand', 'check')).body;
    const key = (await cli('key', 'issue', '--location', location.id)).body.key;
    const tableIds = await importThroughApi(env, key, 1);
    await cli('floorplan', 'publish', '--location', location.id);
    const orderId = (
      await cli('orders', 'open', '--location', location.id, '--tables', tableIds[0]!, '--covers', '2')
    ).body.id;
    const order = (...flags: string[]) => ['--location', location.id, '--order', orderId, ...flags];
    await cli('orders', 'add-item', ...order('--label', 'Wine', '--amount', '1250', '--quantity', '2'));
    const taxed = await cli(
      'orders',
      'add-item',
      ...order('--label', 'Steak', '--amount', '2400', '--tax-rate', '2000', '--course', 'main'),
    );
    expect(taxed.body.check.items[1]).toMatchObject({ label: 'Steak', taxRateBps: 2000, course: 'main' });
    expect(taxed.body.check).toMatchObject({ subtotalMinor: 4900, taxMinor: 400 });
    const voided = await cli('orders', 'void-item', ...order('--item', taxed.body.check.items[1].id));
    expect(voided.body.check).toMatchObject({ subtotalMinor: 2500, taxMinor: 0 });
    const discounted = await cli(
      'orders',
      'add-discount',
      ...order('--label', 'Regulars', '--amount', '500'),
    );
    expect(discounted.body.check).toMatchObject({ discountMinor: 500, totalMinor: 2000 });
    const paid = await cli(
      'orders',
      'add-payment',
      ...order('--amount', '2000', '--tip', '300', '--tender', 'card'),
    );
    expect(paid.body.check).toMatchObject({ paidMinor: 2000, tipMinor: 300, balanceMinor: 0 });
    const status = await cli('orders', 'service-status', ...order('--status', 'paid'));
    expect(status.body.serviceStatus).toBe('paid');
    const badTender = await cli('orders', 'add-payment', ...order('--amount', '1', '--tender', 'iou'));
    expect(badTender).toMatchObject({ code: 1, body: { error: { code: 'validation_failed' } } });
    expect((await runCli(['orders', 'void-item', ...order()], env)).stderr).toContain('missing --item');
    await cli('orders', 'close', '--location', location.id, '--order', orderId);
    const late = await cli('orders', 'add-payment', ...order('--amount', '1', '--tender', 'cash'));
    expect(late).toMatchObject({ code: 1, body: { error: { code: 'order_closed' } } });
  }, 90_000);
});

/** The provider's one-shot import (not an operator command), through the API's own use case. */
async function importThroughApi(env: NodeJS.ProcessEnv, key: string, tables: number): Promise<string[]> {
  const runtime = await createApiRuntime(loadConfig(env), createLogger('silent'));
  try {
    const auth = await authenticate(runtime.deps, { key });
    if (!auth.ok) throw new Error(auth.message);
    const imported = await importFloorPlan(runtime.deps, {
      locationId: auth.value.locationId,
      input: {
        replaceDraft: false,
        rooms: [
          {
            externalId: 'r1',
            name: 'Room',
            tables: Array.from({ length: tables }, (_, i) => ({
              externalId: `t${i}`,
              label: `${i + 1}`,
              seatCount: 4,
              x: 10,
              y: 10,
            })),
          },
        ],
      },
    });
    if (!imported.ok) throw new Error(imported.message);
    return imported.value.mapping.map((m) => m.tableId);
  } finally {
    await runtime.stop();
  }
}
