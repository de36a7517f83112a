import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The till's check (decision 0100): items, discounts and payments as jsonb arrays on the
 * order row, so a check reads with its order in one round trip, and the service status.
 * Orders of the first release stay valid: each of their items gets an id, a tax rate of 0,
 * the course `other` and `voided: false`; an order whose items do not account for its
 * spend (none should exist) gets its spend as one item instead, so the check's total is
 * the spend it had. `table.spend_updated` events already in the outbox gain the `totals` a
 * check without tax, discounts or payments has, so every retained event reads as the
 * contract now describes it.
 */
export class TillCheck1764200000000 implements MigrationInterface {
  name = 'TillCheck1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE orders
        ADD COLUMN discounts jsonb NOT NULL DEFAULT '[]',
        ADD COLUMN payments jsonb NOT NULL DEFAULT '[]',
        ADD COLUMN service_status text
          CHECK (service_status IN ('seated', 'starters', 'mains', 'desserts', 'bill_requested', 'paid'))`);
    await q.query(`
      UPDATE orders SET items = (
        SELECT jsonb_agg(jsonb_build_object(
          'id', gen_random_uuid(),
          'label', i->>'label',
          'quantity', (i->>'quantity')::int,
          'amountMinor', (i->>'amountMinor')::int,
          'taxRateBps', 0,
          'course', 'other',
          'voided', false) ORDER BY n)
        FROM jsonb_array_elements(items) WITH ORDINALITY AS e(i, n))
      WHERE jsonb_array_length(items) > 0`);
    await q.query(`
      UPDATE orders SET items = CASE WHEN spend_minor = 0 THEN '[]'::jsonb ELSE jsonb_build_array(jsonb_build_object(
          'id', gen_random_uuid(),
          'label', 'Spend before itemised checks',
          'quantity', 1,
          'amountMinor', spend_minor,
          'taxRateBps', 0,
          'course', 'other',
          'voided', false)) END
      WHERE spend_minor <> (
        SELECT coalesce(sum((i->>'quantity')::bigint * (i->>'amountMinor')::bigint), 0)
        FROM jsonb_array_elements(items) AS e(i))`);
    await q.query(`
      UPDATE outbox_events
      SET data = data || jsonb_build_object('totals', jsonb_build_object(
        'subtotalMinor', data->'spendMinor',
        'discountMinor', 0,
        'taxMinor', 0,
        'tipMinor', 0,
        'paidMinor', 0,
        'balanceMinor', data->'spendMinor'))
      WHERE type = 'table.spend_updated' AND NOT data ? 'totals'`);
  }

  /** Back to the first release: live items in the old form, spend as their sum; discounts and payments are dropped. */
  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      UPDATE orders SET
        items = coalesce((
          SELECT jsonb_agg(jsonb_build_object(
            'label', i->>'label', 'amountMinor', (i->>'amountMinor')::int, 'quantity', (i->>'quantity')::int) ORDER BY n)
          FROM jsonb_array_elements(items) WITH ORDINALITY AS e(i, n)
          WHERE NOT (i->>'voided')::boolean), '[]'),
        spend_minor = (
          SELECT coalesce(sum((i->>'quantity')::bigint * (i->>'amountMinor')::bigint), 0)::int
          FROM jsonb_array_elements(items) AS e(i)
          WHERE NOT (i->>'voided')::boolean)`);
    await q.query(
      `ALTER TABLE orders DROP COLUMN discounts, DROP COLUMN payments, DROP COLUMN service_status`,
    );
    await q.query(`UPDATE outbox_events SET data = data - 'totals' WHERE type = 'table.spend_updated'`);
  }
}
