import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Providers across venues (docs/decisions/0210-providers-connections-and-keys.md):
 * - `providers`: the operator's providers, and one of its own per location (`own_location_id`,
 *   the provider's id being the location's); every existing location gets its own here;
 * - `connections`: one row per location and provider, its status and latest grant and revoke,
 *   and `covered`, the location's event sequences committed while it was active (a grant
 *   opens a range after the location's last sequence, a revoke closes it at the last one), so
 *   a provider's feed shows exactly the events committed while it was connected. Every location
 *   is connected to its own provider from its first event;
 * - `api_keys`: every key acts for a provider (a location key for its location's own, pinned to
 *   the location); a provider key has no location and says its mode;
 * - `reservations`: owned by the provider that created them, `external_id` unique per location
 *   and provider; the window listing walks one provider's reservations. `provider_id` is derived:
 *   `connected_provider_id` when a connected provider created the row, else the location's own
 *   (so every row written before, and any written without it, stays the location's own);
 * - `orders.reservation_provider_id` and `outbox_events.reservation_provider_id`: who owns the
 *   reservation an order or event names (null: none), kept beside the event body so every reader
 *   is shown only what it may see (`visibleTo`).
 * A location's own provider and every connection go with their location or provider, should one
 * ever be deleted by hand (the service deletes neither). The owner columns carry no foreign key: they are written from authenticated credentials, and
 * a key-share lock on the provider's row at every write would serialise a busy provider.
 */
export class ProvidersAndConnections1764910000000 implements MigrationInterface {
  name = 'ProvidersAndConnections1764910000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE providers (
        id uuid PRIMARY KEY,
        name text NOT NULL,
        brand text NOT NULL,
        -- set on a location's own provider, whose id is the location's
        own_location_id uuid UNIQUE REFERENCES locations(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL
      )`);
    await q.query(
      `CREATE INDEX providers_newest ON providers (created_at DESC, id DESC) WHERE own_location_id IS NULL`,
    );
    await q.query(`
      INSERT INTO providers (id, name, brand, own_location_id, created_at)
      SELECT id, name, brand, id, created_at FROM locations`);

    await q.query(`
      CREATE TABLE connections (
        location_id uuid NOT NULL REFERENCES locations(id) ON DELETE CASCADE,
        provider_id uuid NOT NULL REFERENCES providers(id) ON DELETE CASCADE,
        status text NOT NULL CHECK (status IN ('active', 'revoked')),
        granted_at timestamptz NOT NULL,
        revoked_at timestamptz,
        covered int8multirange NOT NULL,
        PRIMARY KEY (location_id, provider_id)
      )`);
    await q.query(`CREATE INDEX connections_provider ON connections (provider_id, granted_at, location_id)`);
    await q.query(`
      INSERT INTO connections (location_id, provider_id, status, granted_at, revoked_at, covered)
      SELECT id, id, 'active', created_at, NULL, int8multirange(int8range(1, NULL)) FROM locations`);

    await q.query(`ALTER TABLE api_keys ADD COLUMN provider_id uuid REFERENCES providers(id),
                                        ADD COLUMN mode text CHECK (mode IN ('live', 'test'))`);
    await q.query(`UPDATE api_keys SET provider_id = location_id`);
    await q.query(`ALTER TABLE api_keys ALTER COLUMN provider_id SET NOT NULL,
                                        ALTER COLUMN location_id DROP NOT NULL`);
    await q.query(`ALTER TABLE api_keys ADD CONSTRAINT api_keys_kind
                     CHECK ((location_id IS NULL) = (mode IS NOT NULL))`);
    await q.query(`CREATE INDEX api_keys_provider ON api_keys (provider_id)`);

    await q.query(`ALTER TABLE reservations ADD COLUMN connected_provider_id uuid`);
    await q.query(`ALTER TABLE reservations ADD COLUMN provider_id uuid
                     GENERATED ALWAYS AS (COALESCE(connected_provider_id, location_id)) STORED`);
    await q.query(`ALTER TABLE reservations DROP CONSTRAINT reservations_location_external`);
    await q.query(`ALTER TABLE reservations ADD CONSTRAINT reservations_location_provider_external
                     UNIQUE (location_id, provider_id, external_id)`);
    await q.query(`DROP INDEX reservations_window`);
    await q.query(
      `CREATE INDEX reservations_window ON reservations (location_id, provider_id, starts_at, id)`,
    );

    await q.query(`ALTER TABLE orders ADD COLUMN reservation_provider_id uuid`);
    await q.query(
      `UPDATE orders SET reservation_provider_id = location_id WHERE reservation_external_id IS NOT NULL`,
    );
    await q.query(`ALTER TABLE outbox_events ADD COLUMN reservation_provider_id uuid`);
    await q.query(`UPDATE outbox_events SET reservation_provider_id = location_id
                    WHERE data->>'reservationExternalId' IS NOT NULL`);

    await q.query(`CREATE INDEX locations_newest ON locations (created_at DESC, id DESC)`);
  }

  /**
   * Back to one provider per location. Refused while another provider holds a reservation or
   * a key: the earlier schema has no place for them, and nothing stored is dropped.
   */
  async down(q: QueryRunner): Promise<void> {
    const [foreign] = await q.query(
      `SELECT (SELECT count(*) FROM reservations WHERE connected_provider_id IS NOT NULL)
            + (SELECT count(*) FROM api_keys WHERE location_id IS NULL) AS n`,
    );
    if (Number(foreign.n) > 0) {
      throw new Error("providers other than the locations' own hold reservations or keys; cannot go back");
    }
    await q.query(`DROP INDEX locations_newest`);
    await q.query(`ALTER TABLE outbox_events DROP COLUMN reservation_provider_id`);
    await q.query(`ALTER TABLE orders DROP COLUMN reservation_provider_id`);
    await q.query(`DROP INDEX reservations_window`);
    await q.query(`CREATE INDEX reservations_window ON reservations (location_id, starts_at, id)`);
    await q.query(`ALTER TABLE reservations DROP CONSTRAINT reservations_location_provider_external`);
    await q.query(`ALTER TABLE reservations ADD CONSTRAINT reservations_location_external
                     UNIQUE (location_id, external_id)`);
    await q.query(`ALTER TABLE reservations DROP COLUMN provider_id, DROP COLUMN connected_provider_id`);
    await q.query(`DROP INDEX api_keys_provider`);
    await q.query(`ALTER TABLE api_keys DROP CONSTRAINT api_keys_kind`);
    await q.query(`ALTER TABLE api_keys ALTER COLUMN location_id SET NOT NULL`);
    await q.query(`ALTER TABLE api_keys DROP COLUMN mode, DROP COLUMN provider_id`);
    await q.query(`DROP TABLE connections`);
    await q.query(`DROP TABLE providers`);
  }
}
