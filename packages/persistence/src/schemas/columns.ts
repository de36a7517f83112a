import type { EntitySchemaColumnOptions } from 'typeorm';

/**
 * Column helpers shared by the schemas. The migrations own the schema; these options only
 * tell TypeORM how to convert values. Instants are `timestamptz` columns whose values stay
 * text with microseconds in both directions (see `keepTimestampText`).
 */
export const uuid = (extra: Partial<EntitySchemaColumnOptions> = {}): EntitySchemaColumnOptions => ({
  type: 'uuid',
  ...extra,
});
export const primaryUuid = (): EntitySchemaColumnOptions => ({ type: 'uuid', primary: true });
export const text = (nullable = false): EntitySchemaColumnOptions => ({ type: 'text', nullable });
export const int = (nullable = false): EntitySchemaColumnOptions => ({ type: 'integer', nullable });
/** int8: parsed into a JavaScript number by the connection's type parsers (sequences stay far below 2^53). */
export const bigint = (): EntitySchemaColumnOptions => ({ type: 'bigint' });
export const float = (): EntitySchemaColumnOptions => ({ type: 'double precision' });
export const bool = (nullable = false): EntitySchemaColumnOptions => ({ type: 'boolean', nullable });
export const jsonb = (nullable = false): EntitySchemaColumnOptions => ({ type: 'jsonb', nullable });
export const instant = (nullable = false): EntitySchemaColumnOptions => ({ type: 'timestamptz', nullable });
export const textArray = (): EntitySchemaColumnOptions => ({ type: 'text', array: true });
export const uuidArray = (): EntitySchemaColumnOptions => ({ type: 'uuid', array: true });

/**
 * An instant as a row holds it: text with microseconds. Read from the database it looks like
 * `2026-11-21 19:00:00.123456+00` (the session runs with TimeZone=UTC); written, it is
 * `Instant.toIsoMicros()`. `db-instant.ts` converts both ways.
 */
export type InstantText = string;
