/**
 * Who reads the venue's state: one provider (through any of its keys), or the venue itself
 * (its operator surface and its till), which sees every reservation.
 */
export type Reader = { readonly providerId: string } | typeof VENUE;

export const VENUE = 'venue' as const;

export const providerReader = (providerId: string): Reader => ({ providerId });

/**
 * The one rule of what a reader may see of a reservation it does not own: that it exists,
 * never its id. `value` is anything that names a reservation by `reservationExternalId` (an
 * event's `data`, an order, a table's holder); `ownerProviderId` is the provider that owns
 * that reservation. The venue and the owner see the id; any other provider reads
 * `reservationExternalId: null`, as for a walk-in, and everything else as it is. A value that
 * names no reservation is returned as it is; one whose owner is not known is shown to the
 * venue only. Pure, and the same object back when nothing is hidden.
 */
export function visibleTo<T extends object>(
  reader: Reader,
  ownerProviderId: string | null | undefined,
  value: T,
): T {
  const named = (value as { reservationExternalId?: unknown }).reservationExternalId;
  if (named === undefined || named === null) return value;
  if (reader === VENUE) return value;
  if (ownerProviderId !== undefined && ownerProviderId !== null && reader.providerId === ownerProviderId) {
    return value;
  }
  return { ...value, reservationExternalId: null };
}

/**
 * `visibleTo` on an event (a stored one, or one about to be delivered): its `data` as `reader`
 * may see it. The event's id, type, sequence and every other field stay the same for every
 * reader; the owner travels beside the body (`reservationProviderId`), never in it.
 */
export function eventVisibleTo<E extends { readonly reservationProviderId?: string; readonly data: object }>(
  reader: Reader,
  event: E,
): E {
  const data = visibleTo(reader, event.reservationProviderId, event.data);
  return data === event.data ? event : { ...event, data };
}
