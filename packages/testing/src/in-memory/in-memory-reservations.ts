import type {
  Reservation,
  ReservationQueries,
  ReservationRepository,
  ReservationWindowQuery,
} from '@pis/domain';
import { detach } from './detach';
import { compareIds, scoped, type Draft, type Reader } from './state';

export class InMemoryReservationRepository implements ReservationRepository {
  constructor(private readonly draft: Draft) {}

  async lockForWrite(locationId: string, externalId: string): Promise<Reservation | null> {
    return findReservation(this.draft, locationId, externalId);
  }

  async insert(reservation: Reservation): Promise<'inserted' | 'duplicate'> {
    const key = scoped(reservation.locationId, reservation.externalId);
    if (this.draft.get('reservations', key)) return 'duplicate';
    if ([...this.draft.map('reservations').values()].some((r) => r.id === reservation.id)) {
      throw new Error(`reservation id ${reservation.id} is already stored`);
    }
    this.draft.put('reservations', key, detach(reservation));
    return 'inserted';
  }

  async update(reservation: Reservation): Promise<void> {
    const key = scoped(reservation.locationId, reservation.externalId);
    const stored = this.draft.get('reservations', key);
    if (!stored || stored.id !== reservation.id) {
      throw new Error(
        `reservation ${reservation.externalId} (${reservation.id}) is not stored; insert it first`,
      );
    }
    this.draft.put('reservations', key, detach(reservation));
  }
}

export class InMemoryReservationQueries implements ReservationQueries {
  constructor(private readonly read: () => Reader) {}

  async listWindow({ locationId, from, to, after, limit }: ReservationWindowQuery): Promise<Reservation[]> {
    return [...this.read().map('reservations').values()]
      .filter((r) => r.locationId === locationId && !from.isAfter(r.startsAt) && to.isAfter(r.startsAt))
      .filter((r) => after === null || byStartThenId(r, after) > 0)
      .sort(byStartThenId)
      .slice(0, limit)
      .map(detach);
  }

  async findByExternalId(locationId: string, externalId: string): Promise<Reservation | null> {
    return findReservation(this.read(), locationId, externalId);
  }
}

function findReservation(reader: Reader, locationId: string, externalId: string): Reservation | null {
  const found = reader.map('reservations').get(scoped(locationId, externalId));
  return found ? detach(found) : null;
}

const byStartThenId = (a: Pick<Reservation, 'startsAt' | 'id'>, b: Pick<Reservation, 'startsAt' | 'id'>) =>
  a.startsAt.compare(b.startsAt) || compareIds(a.id, b.id);
