import { floorPlanChanges, type ComparablePlan } from '@pis/domain';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `floorplan.published` carries `data.changes` (docs/decisions/0094-floorplan-published-changes.md).
 * Events stored before it are given theirs, computed from the published versions they
 * announce, so the feed and recover serve every such event in the one documented shape.
 */
export class FloorplanPublishedChanges1764510000001 implements MigrationInterface {
  name = 'FloorplanPublishedChanges1764510000001';

  async up(q: QueryRunner): Promise<void> {
    const events: { id: string; location_id: string; version: number }[] = await q.query(
      `SELECT id, location_id, (data->>'version')::int AS version FROM outbox_events
        WHERE type = 'floorplan.published' AND NOT (data ? 'changes')`,
    );
    for (const event of events) {
      const versions: { version: number; snapshot: ComparablePlan }[] = await q.query(
        `SELECT version, snapshot FROM floor_plan_versions
          WHERE location_id = $1 AND version IN ($2, $2 - 1)`,
        [event.location_id, event.version],
      );
      const plan = (version: number) => versions.find((v) => Number(v.version) === version)?.snapshot ?? null;
      const next = plan(event.version) ?? { rooms: [] };
      const changes = floorPlanChanges(plan(event.version - 1), next);
      await q.query(`UPDATE outbox_events SET data = jsonb_set(data, '{changes}', $2::jsonb) WHERE id = $1`, [
        event.id,
        JSON.stringify(changes),
      ]);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE outbox_events SET data = data - 'changes' WHERE type = 'floorplan.published'`);
  }
}
