import {
  createReservation,
  importFloorPlan,
  publishFloorPlan,
  type FloorPlanImportInput,
  updateReservation,
  type Outcome,
  type ReservationInput,
  type ReservationWriteResult,
  type StoredEvent,
} from '../../src';
import { plusMillis } from '../builders';
import { aReservationInput } from '../builders';
import { createInMemoryDeps, type InMemoryDeps } from '../in-memory/create-in-memory-deps';
import {
  expectOk,
  givenLocation,
  givenPublishedLocation,
  type PublishedLocation,
} from '../scenarios/published-location';

/** A published location over fresh in-memory adapters, with the verbs the specs use. */
export interface World extends InMemoryDeps, PublishedLocation {
  create(input: ReservationInput): Promise<Outcome<ReservationWriteResult>>;
  /** PUT with the body's own externalId in the path. */
  put(input: ReservationInput): Promise<Outcome<ReservationWriteResult>>;
  /** Creates and expects it applied. */
  given(overrides?: Partial<ReservationInput>): Promise<ReservationInput>;
  /** The location's committed events from this point on. */
  eventsFrom(mark: number): StoredEvent[];
  /** How many events the location has now (a mark for `eventsFrom`). */
  mark(): number;
}

export async function aWorld(tables = 4): Promise<World> {
  const t = createInMemoryDeps();
  const place = await givenPublishedLocation(t.deps, { tables });
  const world: World = {
    ...t,
    ...place,
    create: (input) => createReservation(t.deps, { locationId: place.locationId, input }),
    put: (input) =>
      updateReservation(t.deps, { locationId: place.locationId, externalId: input.externalId, input }),
    given: async (overrides = {}) => {
      const input = aReservationInput(overrides);
      expectOk(await world.create(input));
      return input;
    },
    eventsFrom: (mark) => t.store.events(place.locationId).slice(mark),
    mark: () => t.store.events(place.locationId).length,
  };
  return world;
}

/** The same write `seconds` later (by the provider's `updatedAt`), with the changes given. */
export function later(
  input: ReservationInput,
  changes: Partial<ReservationInput> = {},
  seconds = 1,
): ReservationInput {
  return { ...input, ...changes, updatedAt: plusMillis(input.updatedAt, seconds * 1000) };
}

/** A location with no floor plan yet, with its import and publish verbs. */
export async function aLocationWithoutPlan() {
  const t = createInMemoryDeps();
  const location = await givenLocation(t.deps);
  const importPlan = (input: FloorPlanImportInput) =>
    importFloorPlan(t.deps, { locationId: location.id, input });
  const publish = () => publishFloorPlan(t.deps, { locationId: location.id });
  return { ...t, locationId: location.id, importPlan, publish };
}

export { expectOk };
