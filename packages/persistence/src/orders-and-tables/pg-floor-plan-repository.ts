import type {
  FloorPlanRepository,
  PublishedFloorPlan,
  PublishedTables,
  Room,
  Table,
  WorkingPlan,
} from '@pis/domain';
import { publishedPlanMapper, roomMapper, tableMapper } from '../mappers/floor-plan.mapper';
import { diningTableSchema } from '../schemas/dining-table.schema';
import { floorPlanVersionSchema } from '../schemas/floor-plan-version.schema';
import type { FloorPlanRow } from '../schemas/floor-plan.schema';
import { roomSchema } from '../schemas/room.schema';
import { chunks, type Sql } from '../db/sql';
import { EMPTY_PLAN, readLatestPublished, readWorkingPlan } from './floor-plan-reads';
import { isUuid, uuidsOnly } from '../adapters/uuid';

/** A new location's `floor_plans` row (nothing published): the lock its plan commands take. */
export async function insertFloorPlanRow(sql: Sql, locationId: string): Promise<void> {
  await sql.rows(
    `INSERT INTO floor_plans (location_id, published_version, published_at) VALUES ($1, NULL, NULL)`,
    [locationId],
  );
}

export class PgFloorPlanRepository implements FloorPlanRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * Locks the location's `floor_plans` row (created on first use), so imports, publishes and
   * table edits of one location serialise; then reads the rooms and tables.
   */
  async lockWorkingPlan(locationId: string): Promise<WorkingPlan> {
    if (!isUuid(locationId)) return EMPTY_PLAN(locationId);
    const lock = () =>
      this.sql.first<FloorPlanRow>(`SELECT * FROM floor_plans WHERE location_id = $1 FOR UPDATE`, [
        locationId,
      ]);
    let plan = await lock();
    if (plan === null) {
      await this.sql.rows(`INSERT INTO floor_plans (location_id) VALUES ($1) ON CONFLICT DO NOTHING`, [
        locationId,
      ]);
      plan = await lock();
    }
    return readWorkingPlan(this.sql, locationId, plan);
  }

  async latestPublished(locationId: string): Promise<PublishedFloorPlan | null> {
    return isUuid(locationId) ? readLatestPublished(this.sql, locationId) : null;
  }

  async replaceDraft(locationId: string, rooms: Room[]): Promise<void> {
    await this.sql.rows(`DELETE FROM dining_tables WHERE location_id = $1`, [locationId]);
    await this.sql.rows(`DELETE FROM rooms WHERE location_id = $1`, [locationId]);
    const roomRows = rooms.map((room) => roomMapper.toPersistence(locationId, room));
    const tableRows = rooms.flatMap((room) =>
      room.tables.map((table) => ({
        ...tableMapper.toPersistence(locationId, { ...table, roomId: room.id }),
        published_active: null,
        open_order_id: null,
      })),
    );
    for (const part of chunks(roomRows)) await this.sql.insert(roomSchema, part);
    for (const part of chunks(tableRows)) await this.sql.insert(diningTableSchema, part);
  }

  async saveTable(locationId: string, table: Table): Promise<void> {
    const { id, location_id, ...fields } = tableMapper.toPersistence(locationId, table);
    const changed = await this.sql.update(diningTableSchema, { id, location_id }, fields);
    if (changed === 0) throw new Error(`table ${id} of location ${location_id} is not stored`);
  }

  /**
   * Stores the snapshot and makes it the latest published plan. The location's tables are
   * locked in id order first (the lock order of every command that touches tables).
   */
  async savePublished(locationId: string, plan: PublishedFloorPlan): Promise<void> {
    await this.sql.rows(`SELECT id FROM dining_tables WHERE location_id = $1 ORDER BY id FOR UPDATE`, [
      locationId,
    ]);
    const row = publishedPlanMapper.toPersistence(locationId, plan);
    await this.sql.insert(floorPlanVersionSchema, [row]);
    await this.sql.rows(
      `INSERT INTO floor_plans (location_id, published_version, published_at) VALUES ($1, $2, $3)
       ON CONFLICT (location_id) DO UPDATE
       SET published_version = EXCLUDED.published_version, published_at = EXCLUDED.published_at`,
      [locationId, row.version, row.published_at],
    );
    const tables = plan.rooms.flatMap((room) => room.tables);
    await this.sql.rows(
      `UPDATE dining_tables t SET published_active = p.active
       FROM unnest($2::uuid[], $3::boolean[]) AS p(id, active)
       WHERE t.location_id = $1 AND t.id = p.id`,
      [locationId, tables.map((t) => t.id), tables.map((t) => t.active)],
    );
  }

  /** One round trip: the published version and the requested tables' published state. */
  async publishedTables(locationId: string, tableIds: string[]): Promise<PublishedTables | null> {
    if (!isUuid(locationId)) return null;
    const rows = await this.sql.rows<{ version: number | null; id: string | null; active: boolean | null }>(
      `SELECT fp.published_version AS version, t.id, t.published_active AS active
       FROM floor_plans fp
       LEFT JOIN dining_tables t ON t.location_id = fp.location_id AND t.id = ANY($2::uuid[])
                                AND t.published_active IS NOT NULL
       WHERE fp.location_id = $1`,
      [locationId, uuidsOnly(tableIds)],
    );
    const version = rows[0]?.version ?? null;
    if (version === null) return null;
    const tables = rows.flatMap((r) => (r.id === null ? [] : [{ id: r.id, active: r.active === true }]));
    return { version, tables };
  }
}
