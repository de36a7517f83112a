import type { DomainEvent } from '@pis/domain';
import { at } from '@pis/domain/test-support';
import {
  commit,
  rollBack,
  useAdapters,
  type MakeAdapters,
  type MakeInspectableAdapters,
} from './adapter-set';
import { givenLocationRow } from './fixtures';

/** A table.occupied event; `n` tells events apart in assertions. */
export function anEvent(n: number, reservationExternalId: string | null = null): DomainEvent {
  const occurredAt = at('2026-11-21T19:00:00.123456Z').plusMicros(BigInt(n));
  return {
    type: 'table.occupied',
    occurredAt,
    data: {
      tableId: `table-${n}`,
      orderId: `order-${n}`,
      reservationExternalId,
      covers: n,
      occurredAt: occurredAt.toIso(),
    },
  };
}

/** `Outbox.append`: ids and the per-location sequence, across and inside transactions. */
export function describeOutboxContract(name: string, make: MakeAdapters): void {
  describe(`${name}: outbox contract`, () => {
    const adapters = useAdapters(make);
    const append = (locationId: string, events: DomainEvent[]) =>
      commit(adapters().uow, (tx) => tx.outbox.append(locationId, events));

    it('When events are appended, then each gets an id, the location and the next sequence, in order, with its content', async () => {
      const location = await givenLocationRow(adapters().uow);
      const events = [anEvent(1), anEvent(2, 'R-2'), anEvent(3)];

      const stored = await append(location.id, events);

      expect(stored.map((e) => e.sequence)).toEqual([1, 2, 3]);
      expect(new Set(stored.map((e) => e.id)).size).toBe(3);
      stored.forEach((e, i) => {
        expect(e.id).toEqual(expect.any(String));
        expect(e).toStrictEqual({ ...events[i], id: e.id, locationId: location.id, sequence: i + 1 });
      });
    });

    it('When appends span transactions, then the sequence continues; two in one transaction continue each other', async () => {
      const location = await givenLocationRow(adapters().uow);
      await append(location.id, [anEvent(1)]);

      const both = await commit(adapters().uow, async (tx) => [
        ...(await tx.outbox.append(location.id, [anEvent(2), anEvent(3)])),
        ...(await tx.outbox.append(location.id, [anEvent(4)])),
      ]);

      expect(both.map((e) => e.sequence)).toEqual([2, 3, 4]);
      expect((await append(location.id, [anEvent(5)])).map((e) => e.sequence)).toEqual([5]);
    });

    it('When two locations append, then each has its own sequence starting at 1', async () => {
      const a = await givenLocationRow(adapters().uow);
      const b = await givenLocationRow(adapters().uow);

      const first = await append(a.id, [anEvent(1), anEvent(2)]);
      const other = await append(b.id, [anEvent(3)]);
      const next = await append(a.id, [anEvent(4)]);

      expect([first, other, next].map((events) => events.map((e) => e.sequence))).toEqual([[1, 2], [1], [3]]);
    });

    it('When a transaction that appended rolls back, then its sequence numbers are not consumed', async () => {
      const location = await givenLocationRow(adapters().uow);
      await append(location.id, [anEvent(1)]);

      await rollBack(adapters().uow, (tx) => tx.outbox.append(location.id, [anEvent(2), anEvent(3)]));
      await expect(
        adapters().uow.run(async (tx) => {
          await tx.outbox.append(location.id, [anEvent(4)]);
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');

      expect((await append(location.id, [anEvent(5)])).map((e) => e.sequence)).toEqual([2]);
    });

    it('When an empty list is appended, then nothing is stored and no number is consumed', async () => {
      const location = await givenLocationRow(adapters().uow);

      expect(await append(location.id, [])).toEqual([]);
      expect((await append(location.id, [anEvent(1)])).map((e) => e.sequence)).toEqual([1]);
    });

    it('When many units of work append to one location at once, then the sequences are 1..n without gaps or repeats', async () => {
      const location = await givenLocationRow(adapters().uow);

      const batches = await Promise.all(
        Array.from({ length: 6 }, (_, i) => append(location.id, [anEvent(2 * i), anEvent(2 * i + 1)])),
      );

      const sequences = batches.flat().map((e) => e.sequence);
      expect([...sequences].sort((x, y) => x - y)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
      batches.forEach(([first, second]) => expect(second!.sequence).toBe(first!.sequence + 1));
    });
  });
}

/** The committed outbox rows, through the adapter owner's inspection hook. */
export function describeStoredEventsContract(name: string, make: MakeInspectableAdapters): void {
  describe(`${name}: stored outbox events contract`, () => {
    const adapters = useAdapters(make);

    it('When events commit, then the outbox holds them by sequence exactly as append returned them', async () => {
      const location = await givenLocationRow(adapters().uow);
      const first = await commit(adapters().uow, (tx) =>
        tx.outbox.append(location.id, [anEvent(1, 'R-1'), anEvent(2)]),
      );
      const published = {
        type: 'floorplan.published' as const,
        occurredAt: at('2026-11-21T12:00:00.000001Z'),
        data: {
          version: 1,
          publishedAt: '2026-11-21T12:00:00.000Z',
          changes: { added: [], deactivated: [], reactivated: [], relabelled: [], updated: [] },
        },
      };
      const second = await commit(adapters().uow, (tx) => tx.outbox.append(location.id, [published]));

      expect(await adapters().events(location.id)).toStrictEqual([...first, ...second]);
    });

    it('When a transaction rolls back, then none of its events are in the outbox', async () => {
      const location = await givenLocationRow(adapters().uow);
      const kept = await commit(adapters().uow, (tx) => tx.outbox.append(location.id, [anEvent(1)]));

      await rollBack(adapters().uow, (tx) => tx.outbox.append(location.id, [anEvent(2)]));

      expect(await adapters().events(location.id)).toStrictEqual(kept);
    });

    it("When another location appends, then its events are not in this location's outbox", async () => {
      const mine = await givenLocationRow(adapters().uow);
      const theirs = await givenLocationRow(adapters().uow);
      await commit(adapters().uow, (tx) => tx.outbox.append(theirs.id, [anEvent(1)]));

      expect(await adapters().events(mine.id)).toEqual([]);
    });
  });
}
