import {
  ownProviderId,
  type Reservation,
  type ReservationQueries,
  type ReservationRepository,
  type ReservationWindowQuery,
} from '../../src';
import { detach } from './detach';
import { compareIds, reservationKey, reservationsOf, type Draft, type Reader } from './state';

/** Reservations keyed by location, provider and externalId: each provider has its own namespace. */
export class InMemoryReservationRepository implements ReservationRepository {
  constructor(private readonly draft: Draft) {}

  async lockForWrite(
    locationId: string,
    externalId: string,
    providerId?: string,
  ): Promise<Reservation | null> {
    return findReservation(this.draft, locationId, externalId, providerId);
  }

  async insert(reservation: Reservation, providerId?: string): Promise<'inserted' | 'duplicate'> {
    const owner = providerId ?? ownProviderId(reservation.locationId);
    const key = reservationKey(reservation.locationId, owner, reservation.externalId);
    if (this.draft.get('reservations', key)) return 'duplicate';
    if ([...this.draft.map('reservations').values()].some((r) => r.id === reservation.id)) {
      throw new Error(`reservation id ${reservation.id} is already stored`);
    }
    this.draft.put('reservations', key, detach(reservation));
    return 'inserted';
  }

  async update(reservation: Reservation): Promise<void> {
    const stored = [...this.draft.map('reservations')].find(([, r]) => r.id === reservation.id);
    if (
      !stored ||
      stored[1].locationId !== reservation.locationId ||
      stored[1].externalId !== reservation.externalId
    ) {
      throw new Error(
        `reservation ${reservation.externalId} (${reservation.id}) is not stored; insert it first`,
      );
    }
    this.draft.put('reservations', stored[0], detach(reservation));
  }
}

export class InMemoryReservationQueries implements ReservationQueries {
  constructor(private readonly read: () => Reader) {}

  async listWindow(query: ReservationWindowQuery): Promise<Reservation[]> {
    const { locationId, from, to, after, limit } = query;
    const prefix = reservationsOf(locationId, query.providerId ?? ownProviderId(locationId));
    return [...this.read().map('reservations')]
      .filter(([key]) => key.startsWith(prefix))
      .map(([, r]) => r)
      .filter((r) => !from.isAfter(r.startsAt) && to.isAfter(r.startsAt))
      .filter((r) => after === null || byStartThenId(r, after) > 0)
      .sort(byStartThenId)
      .slice(0, limit)
      .map(detach);
  }

  async findByExternalId(
    locationId: string,
    externalId: string,
    providerId?: string,
  ): Promise<Reservation | null> {
    return findReservation(this.read(), locationId, externalId, providerId);
  }
}

function findReservation(
  reader: Reader,
  locationId: string,
  externalId: string,
  providerId: string | undefined,
): Reservation | null {
  const key = reservationKey(locationId, providerId ?? ownProviderId(locationId), externalId);
  const found = reader.map('reservations').get(key);
  return found ? detach(found) : null;
}

const byStartThenId = (a: Pick<Reservation, 'startsAt' | 'id'>, b: Pick<Reservation, 'startsAt' | 'id'>) =>
  a.startsAt.compare(b.startsAt) || compareIds(a.id, b.id);
