import { fail, ok, type Outcome, type ValidationDetail } from '../../kernel/outcome';

/** An order stands on at least one table, each named once. */
export function checkOrderTables(tableIds: readonly string[]): Outcome<void> {
  const details: ValidationDetail[] = [];
  if (tableIds.length === 0)
    details.push({ path: '/tableIds', message: 'an order needs at least one table' });
  tableIds.forEach((id, index) => {
    if (tableIds.indexOf(id) !== index)
      details.push({ path: `/tableIds/${index}`, message: `duplicate table id ${id}` });
  });
  return details.length === 0 ? ok(undefined) : fail('validation_failed', details[0]!.message, details);
}
