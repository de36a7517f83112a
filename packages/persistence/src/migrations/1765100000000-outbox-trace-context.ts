import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The trace context of the write that appended an outbox event (docs/decisions/0230-trace-propagation.md):
 * W3C `traceparent` (and `tracestate`) as a JSON object, null when tracing is off. A nullable
 * column without a default: adding it rewrites nothing.
 */
export class OutboxTraceContext1765100000000 implements MigrationInterface {
  name = 'OutboxTraceContext1765100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE outbox_events ADD COLUMN trace_context jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE outbox_events DROP COLUMN trace_context`);
  }
}
