import { ok } from '@pis/domain';
import { aReservation, commit, givenLocationRow } from '@pis/testing';
import { createPersistence } from '../src';
import { postgresStore, testCipher, type Store } from './support/harness';

let store: Store;
beforeAll(async () => {
  store = await postgresStore(4);
});
afterAll(() => store.close());

/** Resolves once `parties` callers have arrived. */
function barrier(parties: number): () => Promise<void> {
  let arrived = 0;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return () => {
    arrived += 1;
    if (arrived === parties) open();
    return opened;
  };
}

describe('PostgreSQL: PgUnitOfWork retries', () => {
  it('When two units of work deadlock, then the one PostgreSQL aborts runs again and both commit', async () => {
    const location = await givenLocationRow(store.uow);
    const [a, b] = [aReservation(location.id, { covers: 1 }), aReservation(location.id, { covers: 1 })];
    await commit(store.uow, async (tx) => {
      await tx.reservations.insert(a);
      await tx.reservations.insert(b);
    });
    const bothHoldOne = barrier(2);
    const attempts = { ab: 0, ba: 0 };
    // Opposite lock orders: each takes its first row, waits for the other, then asks for the other's.
    const crossing = (first: string, second: string, key: 'ab' | 'ba') =>
      store.uow.run(async (tx) => {
        attempts[key] += 1;
        const mine = await tx.reservations.lockForWrite(location.id, first);
        if (attempts[key] === 1) await bothHoldOne();
        const theirs = await tx.reservations.lockForWrite(location.id, second);
        await tx.reservations.update({ ...mine!, covers: mine!.covers + 1 });
        await tx.reservations.update({ ...theirs!, covers: theirs!.covers + 1 });
        return ok(key);
      });

    const outcomes = await Promise.all([
      crossing(a.externalId, b.externalId, 'ab'),
      crossing(b.externalId, a.externalId, 'ba'),
    ]);

    expect(outcomes).toEqual([ok('ab'), ok('ba')]);
    expect(attempts.ab + attempts.ba).toBe(3);
    const covers = await Promise.all(
      [a, b].map((r) => store.queries.reservations.findByExternalId(location.id, r.externalId)),
    );
    expect(covers.map((r) => r?.covers)).toEqual([3, 3]);
  });

  it.each([
    ['a serialisation failure (40001)', '40001', 4],
    ['a deadlock (40P01)', '40P01', 4],
    ['a unique violation (23505)', '23505', 1],
    ['an error without a SQLSTATE', undefined, 1],
  ])(
    'When the work keeps failing with %s, then it runs %i time(s) and run rejects',
    async (_, code, runs) => {
      let attempts = 0;

      const run = store.uow.run(async () => {
        attempts += 1;
        throw Object.assign(new Error('database said no'), code === undefined ? {} : { code });
      });

      await expect(run).rejects.toThrow('database said no');
      expect(attempts).toBe(runs);
    },
  );

  it('When maxAttempts is set, then a retryable failure runs that many times at most', async () => {
    const { uow } = createPersistence(store.db, { cipher: testCipher, maxAttempts: 2 });
    let attempts = 0;

    const run = uow.run(async () => {
      attempts += 1;
      throw Object.assign(new Error('serialisation'), { code: '40001' });
    });

    await expect(run).rejects.toThrow('serialisation');
    expect(attempts).toBe(2);
  });
});
