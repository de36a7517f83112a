import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The whole schema of the first release. Instants are `timestamptz` (microseconds, what
 * the domain compares on); every row carries its `location_id` and every query filters
 * on it. Lock order, to keep commands deadlock-free: reservation row, then order row,
 * then table rows (by id), then the location row (event sequence); plan commands take
 * the floor_plans row first.
 */
export class InitialSchema1764000000000 implements MigrationInterface {
  name = 'InitialSchema1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE locations (
        id uuid PRIMARY KEY,
        name text NOT NULL,
        brand text NOT NULL,
        currency char(3) NOT NULL,
        created_at timestamptz NOT NULL,
        -- last locationEventSequence handed out; bumped (and so row-locked) by Outbox.append
        event_sequence bigint NOT NULL DEFAULT 0
      )`);
    await q.query(`
      CREATE TABLE api_keys (
        id uuid PRIMARY KEY,
        location_id uuid NOT NULL REFERENCES locations(id),
        key_hash char(64) NOT NULL UNIQUE,
        prefix text NOT NULL,
        created_at timestamptz NOT NULL,
        revoked_at timestamptz
      )`);
    await q.query(`CREATE INDEX api_keys_location ON api_keys (location_id)`);

    await q.query(`
      CREATE TABLE floor_plans (
        location_id uuid PRIMARY KEY REFERENCES locations(id),
        published_version integer,
        published_at timestamptz
      )`);
    await q.query(`
      CREATE TABLE rooms (
        id uuid PRIMARY KEY,
        location_id uuid NOT NULL REFERENCES locations(id),
        external_id text,
        name text NOT NULL,
        sort_order integer NOT NULL,
        canvas_width double precision NOT NULL,
        canvas_height double precision NOT NULL,
        decorations jsonb NOT NULL DEFAULT '[]'
      )`);
    await q.query(`CREATE INDEX rooms_location ON rooms (location_id)`);
    await q.query(`
      CREATE TABLE dining_tables (
        id uuid PRIMARY KEY,
        location_id uuid NOT NULL REFERENCES locations(id),
        room_id uuid NOT NULL REFERENCES rooms(id) ON DELETE CASCADE,
        external_id text,
        label text NOT NULL,
        shape text NOT NULL,
        seat_count integer NOT NULL,
        min_covers integer NOT NULL,
        max_covers integer NOT NULL,
        active boolean NOT NULL,
        x double precision NOT NULL,
        y double precision NOT NULL,
        rotation double precision NOT NULL,
        -- the table's active flag in the latest published plan; null while never published
        published_active boolean,
        -- the open order standing on the table: one column, so never two
        open_order_id uuid
      )`);
    await q.query(`CREATE INDEX dining_tables_location ON dining_tables (location_id, id)`);
    await q.query(`CREATE INDEX dining_tables_room ON dining_tables (room_id)`);
    await q.query(`
      CREATE TABLE floor_plan_versions (
        location_id uuid NOT NULL REFERENCES locations(id),
        version integer NOT NULL,
        published_at timestamptz NOT NULL,
        snapshot jsonb NOT NULL,
        PRIMARY KEY (location_id, version)
      )`);

    await q.query(`
      CREATE TABLE orders (
        id uuid PRIMARY KEY,
        location_id uuid NOT NULL REFERENCES locations(id),
        table_ids uuid[] NOT NULL,
        covers integer NOT NULL,
        spend_minor integer NOT NULL,
        currency char(3) NOT NULL,
        status text NOT NULL CHECK (status IN ('open', 'closed', 'voided')),
        reservation_external_id text,
        items jsonb NOT NULL DEFAULT '[]',
        opened_at timestamptz NOT NULL,
        closed_at timestamptz
      )`);
    await q.query(`CREATE INDEX orders_location_newest ON orders (location_id, opened_at DESC, id DESC)`);
    await q.query(`ALTER TABLE dining_tables ADD FOREIGN KEY (open_order_id) REFERENCES orders(id)`);
    // Freeing an order's tables finds them by the order (and the foreign key checks use it).
    await q.query(
      `CREATE INDEX dining_tables_open_order ON dining_tables (open_order_id) WHERE open_order_id IS NOT NULL`,
    );

    await q.query(`
      CREATE TABLE reservations (
        id uuid PRIMARY KEY,
        location_id uuid NOT NULL REFERENCES locations(id),
        external_id text NOT NULL,
        status text NOT NULL,
        party_name text,
        covers integer NOT NULL,
        starts_at timestamptz NOT NULL,
        ends_at timestamptz,
        table_ids text[] NOT NULL,
        guest jsonb,
        internal_note text,
        prepayment jsonb,
        pos_order_id text,
        updated_at timestamptz NOT NULL,
        linked_order_id uuid REFERENCES orders(id),
        arrived_at timestamptz,
        received_at timestamptz NOT NULL,
        CONSTRAINT reservations_location_external UNIQUE (location_id, external_id)
      )`);
    await q.query(`CREATE INDEX reservations_window ON reservations (location_id, starts_at, id)`);

    await q.query(`
      CREATE TABLE outbox_events (
        id uuid PRIMARY KEY,
        location_id uuid NOT NULL REFERENCES locations(id),
        sequence bigint NOT NULL,
        type text NOT NULL,
        occurred_at timestamptz NOT NULL,
        data jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        -- set once the relay has fanned the event out to deliveries
        relayed_at timestamptz,
        CONSTRAINT outbox_events_location_sequence UNIQUE (location_id, sequence)
      )`);
    await q.query(
      `CREATE INDEX outbox_events_unrelayed ON outbox_events (created_at, id) WHERE relayed_at IS NULL`,
    );

    await q.query(`
      CREATE TABLE webhook_endpoints (
        id uuid PRIMARY KEY,
        location_id uuid NOT NULL UNIQUE REFERENCES locations(id),
        url text NOT NULL,
        events text[] NOT NULL,
        -- [{secret: <encrypted>, expiresAt: iso | null}], current first
        secrets jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        disabled_at timestamptz
      )`);
    await q.query(`
      CREATE TABLE webhook_deliveries (
        id uuid PRIMARY KEY,
        location_id uuid NOT NULL REFERENCES locations(id),
        endpoint_id uuid NOT NULL,
        event_id uuid NOT NULL REFERENCES outbox_events(id),
        event_type text NOT NULL,
        sequence bigint NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
        attempt_count integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz,
        -- bumped by a redelivery; the queue job of a generation is enqueued once
        generation integer NOT NULL DEFAULT 0,
        queued_generation integer,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT webhook_deliveries_event_endpoint UNIQUE (event_id, endpoint_id)
      )`);
    await q.query(
      `CREATE INDEX webhook_deliveries_newest ON webhook_deliveries (location_id, created_at DESC, id DESC)`,
    );
    await q.query(
      `CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`,
    );
    await q.query(`
      CREATE TABLE webhook_attempts (
        id bigserial PRIMARY KEY,
        delivery_id uuid NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
        attempted_at timestamptz NOT NULL,
        response_status integer,
        duration_ms integer NOT NULL,
        error text
      )`);
    await q.query(`CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id, attempted_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'webhook_attempts',
      'webhook_deliveries',
      'webhook_endpoints',
      'outbox_events',
      'reservations',
      'dining_tables',
      'orders',
      'floor_plan_versions',
      'rooms',
      'floor_plans',
      'api_keys',
      'locations',
    ]) {
      await q.query(`DROP TABLE IF EXISTS ${table} CASCADE`);
    }
  }
}
