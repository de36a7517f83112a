import {
  listReservations,
  type Instant,
  type Page,
  type Reservation,
  type ReservationCursor,
} from '../../src';
import { at } from '../builders';
import { aWorld, expectOk, type World } from './use-case-world';

const list = (
  world: World,
  from: Instant,
  to: Instant,
  limit = 100,
  after: { startsAt: Instant; id: string } | null = null,
) => listReservations(world.deps, { locationId: world.locationId, from, to, limit, after });

describe('listReservations (reconciliation window)', () => {
  it.each([
    ['to equals from', '2026-11-21T19:00:00Z', '2026-11-21T19:00:00Z'],
    ['to before from', '2026-11-21T19:00:00Z', '2026-11-21T18:00:00Z'],
    ['longer than 31 days', '2026-11-01T00:00:00Z', '2026-12-02T00:00:00.000001Z'],
  ])('When %s, then 422 validation_failed', async (_, from, to) => {
    const world = await aWorld();

    expect(await list(world, at(from), at(to))).toMatchObject({ ok: false, code: 'validation_failed' });
  });

  it('When the window is exactly 31 days, then it is listed', async () => {
    const world = await aWorld();

    expect((await list(world, at('2026-11-01T00:00:00Z'), at('2026-12-02T00:00:00Z'))).ok).toBe(true);
  });

  it('When reservations lie on the edges, then startsAt in [from, to) is listed, cancelled ones included, by (startsAt, id)', async () => {
    const world = await aWorld();
    await world.given({ externalId: 'before', startsAt: at('2026-11-21T17:59:59.999999Z') });
    await world.given({ externalId: 'at-from', startsAt: at('2026-11-21T18:00:00Z') });
    await world.given({ externalId: 'cancelled', status: 'cancelled', startsAt: at('2026-11-21T19:00:00Z') });
    await world.given({ externalId: 'last', startsAt: at('2026-11-21T21:59:59.999999Z') });
    await world.given({ externalId: 'at-to', startsAt: at('2026-11-21T22:00:00Z') });

    const page = expectOk(await list(world, at('2026-11-21T18:00:00Z'), at('2026-11-21T22:00:00Z')));

    expect(page.items.map((r) => r.externalId)).toEqual(['at-from', 'cancelled', 'last']);
    expect(page.next).toBeNull();
  });

  it('When more reservations match than the limit, then pages follow the cursor without gaps or repeats', async () => {
    const world = await aWorld();
    for (let i = 0; i < 7; i += 1) {
      await world.given({
        externalId: `R-${i}`,
        startsAt: at(i % 2 === 0 ? '2026-11-21T19:00:00Z' : '2026-11-21T20:00:00Z'),
      });
    }
    const seen: string[] = [];
    let after: { startsAt: Instant; id: string } | null = null;
    let pages = 0;

    do {
      const page: Page<Reservation, ReservationCursor> = expectOk(
        await list(world, at('2026-11-21T00:00:00Z'), at('2026-11-22T00:00:00Z'), 3, after),
      );
      seen.push(...page.items.map((r) => r.externalId));
      after = page.next;
      pages += 1;
    } while (after !== null);

    expect(pages).toBe(3);
    expect([...seen].sort()).toEqual(['R-0', 'R-1', 'R-2', 'R-3', 'R-4', 'R-5', 'R-6']);
    expect(seen.slice(0, 4).sort()).toEqual(['R-0', 'R-2', 'R-4', 'R-6']);
  });

  it('When the page is exactly full, then next is null', async () => {
    const world = await aWorld();
    await world.given({ startsAt: at('2026-11-21T19:00:00Z') });
    await world.given({ startsAt: at('2026-11-21T19:30:00Z') });

    const page = expectOk(await list(world, at('2026-11-21T00:00:00Z'), at('2026-11-22T00:00:00Z'), 2));

    expect([page.items.length, page.next]).toEqual([2, null]);
  });
});
