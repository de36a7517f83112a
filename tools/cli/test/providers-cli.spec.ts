import { createTestDatabase, type TestDatabase } from '@pis/persistence/test-support';
import { runCli } from '../src/run-cli';

jest.setTimeout(60_000);

/** The CLI's provider, key and connection commands (docs/reference/backoffice-api.md#command-line-tool). */
describe('the operator CLI: providers and connections', () => {
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

  it('When an operator creates a provider, issues its keys and grants and revokes it a location, then each step answers as the API does', async () => {
    const location = (await cli('location', 'create', '--name', 'Chez CLI', '--brand', 'chez')).body;
    const provider = await cli('provider', 'create', '--name', 'OpenBook', '--brand', 'openbook');
    const live = await cli('provider', 'key', '--provider', provider.body.id);
    const test = await cli('provider', 'key', '--provider', provider.body.id, '--mode', 'test');
    const granted = await cli(
      'connection',
      'grant',
      '--location',
      location.id,
      '--provider',
      provider.body.id,
    );
    const listed = await cli('connection', 'list', '--location', location.id);
    const revoked = await cli(
      'connection',
      'revoke',
      '--location',
      location.id,
      '--provider',
      provider.body.id,
    );
    const after = await cli('connection', 'list', '--location', location.id);
    const revokedKey = await cli(
      'provider',
      'revoke-key',
      '--provider',
      provider.body.id,
      '--key',
      live.body.id,
    );

    expect(provider).toMatchObject({ code: 0, body: { name: 'OpenBook', brand: 'openbook' } });
    expect(live.body).toMatchObject({
      mode: 'live',
      key: expect.stringMatching(/^openbook_pk_live_[A-Za-z0-9]{40}$/),
    });
    expect(test.body).toMatchObject({
      mode: 'test',
      key: expect.stringMatching(/^openbook_pk_test_[A-Za-z0-9]{40}$/),
    });
    expect(granted.body).toMatchObject({
      locationId: location.id,
      providerId: provider.body.id,
      status: 'active',
      own: false,
    });
    expect(listed.body.connections.map((c: { own: boolean; status: string }) => [c.own, c.status])).toEqual([
      [true, 'active'],
      [false, 'active'],
    ]);
    expect([revoked.code, revokedKey.code]).toEqual([0, 0]);
    expect(after.body.connections[1].status).toBe('revoked');
    expect((await cli('provider', 'list')).body.providers.map((p: { id: string }) => p.id)).toEqual([
      provider.body.id,
    ]);
    expect(
      (await cli('location', 'list', '--limit', '1')).body.locations.map((l: { id: string }) => l.id),
    ).toEqual([location.id]);
  });

  it('When a command misses its provider, names an unknown one or revokes a location’s own, then it says so', async () => {
    const location = (await cli('location', 'create', '--name', 'Own', '--brand', 'own')).body;

    const missing = await runCli(['connection', 'grant', '--location', location.id], env);
    const unknown = await cli(
      'connection',
      'grant',
      '--location',
      location.id,
      '--provider',
      '00000000-0000-4000-8000-000000000000',
    );
    const own = await cli('connection', 'revoke', '--location', location.id, '--provider', location.id);
    const mode = await cli('provider', 'create', '--name', 'X', '--brand', 'x');

    expect([missing.code, missing.stderr]).toEqual([2, expect.stringContaining('missing --provider')]);
    expect([unknown.code, unknown.body.error.code]).toEqual([1, 'not_found']);
    expect([own.code, own.body.error.code]).toEqual([1, 'validation_failed']);
    expect([mode.code, mode.body.error.code]).toEqual([1, 'validation_failed']);
  });
});
