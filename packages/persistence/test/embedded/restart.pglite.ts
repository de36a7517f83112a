import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aLocation, aReservation, anEvent, at, commit } from '@pis/testing';
import { createDataSource, createPersistence, openDatabase, runMigrations } from '../../src';
import { MIGRATIONS } from '../../src/migrations';
import { testCipher } from '../support/harness';

describe('PGlite: an embedded database in a directory', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pis-restart-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('When the DataSource is closed and opened again on the same directory, then the data and the schema are still there', async () => {
    const location = aLocation();
    const reservation = aReservation(location.id, { startsAt: at('2026-11-21T19:00:00.123456Z') });
    const first = await openDatabase({ dataDir });
    expect(await runMigrations(first.dataSource)).toEqual(MIGRATIONS.map((m) => m.name));
    const before = createPersistence(first, { cipher: testCipher });
    await commit(before.uow, async (tx) => {
      await tx.locations.insert(location);
      await tx.reservations.insert(reservation);
      await tx.outbox.append(location.id, [anEvent(1)]);
    });
    await first.close();

    const second = await openDatabase({ dataDir });
    const pending = await runMigrations(second.dataSource);
    const after = createPersistence(second, { cipher: testCipher });
    const found = await after.queries.reservations.findByExternalId(location.id, reservation.externalId);
    const next = await commit(after.uow, (tx) => tx.outbox.append(location.id, [anEvent(2)]));
    await second.close();

    expect(pending).toEqual([]);
    expect(found).toStrictEqual(reservation);
    expect(next.map((e) => e.sequence)).toEqual([2]);
  });

  it('When a second embedded database is opened while one is open, then it is refused instead of sharing the first', async () => {
    const open = await createDataSource({ dataDir });

    await expect(createDataSource({ dataDir: `${dataDir}-other` })).rejects.toThrow(/already open/);

    await open.destroy();
    const reopened = await createDataSource({ dataDir });
    expect(reopened.isInitialized).toBe(true);
    await reopened.destroy();
  });
});
