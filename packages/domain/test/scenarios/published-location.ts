import {
  createLocation,
  importFloorPlan,
  publishFloorPlan,
  type Deps,
  type ImportResult,
  type Location,
  type Outcome,
} from '../../src';
import { aFloorPlanImport } from '../builders';
import { aLocationCommand } from '../builders';

export interface PublishedLocation {
  locationId: string;
  location: Location;
  /** Every table id of the plan, room by room, in import order. */
  tableIds: string[];
  roomIds: string[];
  mapping: ImportResult['mapping'];
  version: number;
}

/** The success value of an outcome; a failure throws with its code, so a broken arrange is loud. */
export function expectOk<T>(outcome: Outcome<T>): T {
  if (!outcome.ok) throw new Error(`expected success, got ${outcome.code}: ${outcome.message}`);
  return outcome.value;
}

/** A location created through the use cases (no plan yet). */
export async function givenLocation(
  deps: Deps,
  command: Partial<{ name: string; brand: string; currency: string }> = {},
): Promise<Location> {
  return expectOk(await createLocation(deps, aLocationCommand(command)));
}

/**
 * A location whose floor plan was imported and published through the use cases, as an
 * operator and a provider would do it: `tables` tables spread over `rooms` rooms.
 */
export async function givenPublishedLocation(
  deps: Deps,
  { tables = 4, rooms = 1, currency = 'EUR' }: { tables?: number; rooms?: number; currency?: string } = {},
): Promise<PublishedLocation> {
  const location = await givenLocation(deps, { currency });
  const perRoom = Math.ceil(tables / rooms);
  const full = aFloorPlanImport({ rooms, tablesPerRoom: perRoom });
  const input = {
    ...full,
    rooms: full.rooms.map((room, r) => ({
      ...room,
      tables: room.tables.slice(0, Math.max(0, tables - r * perRoom)),
    })),
  };
  const imported = expectOk(await importFloorPlan(deps, { locationId: location.id, input }));
  const published = expectOk(await publishFloorPlan(deps, { locationId: location.id }));
  return {
    locationId: location.id,
    location,
    tableIds: imported.mapping.map((m) => m.tableId),
    roomIds: imported.rooms.map((r) => r.roomId),
    mapping: imported.mapping,
    version: published.version,
  };
}
