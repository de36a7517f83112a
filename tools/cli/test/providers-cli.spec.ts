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

  it('When the operator lists a provider’s connections, then it gets the venues its key reaches, page by page, as GET /connections lists them', async () => {
    const provider = (await cli('provider', 'create', '--name', 'TableHop', '--brand', 'tablehop')).body;
    const venues: { id: string; name: string }[] = [];
    for (const name of ['Venue A', 'Venue B', 'Venue C']) {
      const venue = (await cli('location', 'create', '--name', name, '--brand', 'venue')).body;
      await cli('connection', 'grant', '--location', venue.id, '--provider', provider.id);
      venues.push(venue);
    }
    await cli('connection', 'revoke', '--location', venues[1]!.id, '--provider', provider.id);

    const first = await cli('provider', 'connections', '--provider', provider.id, '--limit', '2');
    const second = await cli(
      'provider',
      'connections',
      '--provider',
      provider.id,
      '--cursor',
      first.body.nextCursor,
    );
    const unknown = await cli(
      'provider',
      'connections',
      '--provider',
      '00000000-0000-4000-8000-000000000000',
    );
    const tooMany = await cli('provider', 'connections', '--provider', provider.id, '--limit', '101');
    const missing = await runCli(['provider', 'connections'], env);

    const listed = [...first.body.connections, ...second.body.connections];
    expect(listed.map((c: { name: string; status: string }) => [c.name, c.status])).toEqual([
      ['Venue A', 'active'],
      ['Venue B', 'revoked'],
      ['Venue C', 'active'],
    ]);
    expect(listed.map((c: { locationId: string }) => c.locationId)).toEqual(venues.map((v) => v.id));
    expect(second.body.nextCursor).toBeNull();
    expect([unknown.code, unknown.body.error.code]).toEqual([1, 'not_found']);
    expect([tooMany.code, tooMany.body.error.code]).toEqual([1, 'validation_failed']);
    expect([missing.code, missing.stderr]).toEqual([2, expect.stringContaining('missing --provider')]);
  });
});
