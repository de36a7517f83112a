import type { PipelineBacklog, PipelineBacklogMeasure } from '@pis/ports';
import type { Database } from '../db/database';

/**
 * One read-side statement on the partial indexes the relay and the claims use
 * (`outbox_events_unrelayed`, `webhook_deliveries_due`), so a scrape stays cheap however
 * large the tables grow; the lag is measured on the database clock, as `created_at` is.
 */
export class PgPipelineBacklog implements PipelineBacklog {
  constructor(private readonly db: Database) {}

  async measure(): Promise<PipelineBacklogMeasure> {
    const row = await this.db.read((sql) =>
      sql.first<{ lag: number | null; unrelayed: number; pending: number }>(
        `SELECT (SELECT greatest(0, extract(epoch FROM clock_timestamp() - min(created_at)))::float8
                   FROM outbox_events WHERE relayed_at IS NULL) AS lag,
                (SELECT count(*) FROM outbox_events WHERE relayed_at IS NULL) AS unrelayed,
                (SELECT count(*) FROM webhook_deliveries WHERE status = 'pending') AS pending`,
      ),
    );
    return {
      outboxLagSeconds: Number(row?.lag ?? 0),
      unrelayedEvents: Number(row?.unrelayed ?? 0),
      pendingDeliveries: Number(row?.pending ?? 0),
    };
  }
}
