import type { DataSource } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';

const TIMESTAMP_TYPES = new Set<unknown>([
  'timestamptz',
  'timestamp',
  'timestamp with time zone',
  'timestamp without time zone',
]);

/**
 * TypeORM's postgres driver converts timestamp values through a JavaScript Date on the way in
 * and on the way out, which drops the microseconds the domain compares on. Rows here hold
 * instants as text (the type parsers keep the database's text; mappers write
 * `Instant.toIsoMicros()`), so string values of timestamp columns pass through the driver
 * untouched in both directions. Applied once to each DataSource this package creates.
 */
export function keepTimestampText(dataSource: DataSource): void {
  const driver = dataSource.driver;
  const hydrate = driver.prepareHydratedValue.bind(driver);
  const persist = driver.preparePersistentValue.bind(driver);
  const isTimestamp = (column: ColumnMetadata) => TIMESTAMP_TYPES.has(column.type);
  driver.prepareHydratedValue = (value: unknown, column: ColumnMetadata) =>
    typeof value === 'string' && isTimestamp(column) ? value : hydrate(value, column);
  driver.preparePersistentValue = (value: unknown, column: ColumnMetadata) =>
    typeof value === 'string' && isTimestamp(column) && !column.transformer ? value : persist(value, column);
}
