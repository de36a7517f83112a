import { Instant } from '@pis/domain';
import type { Format } from 'ajv';

/**
 * A date-time as the contract defines it (docs/reference/limits-and-formats.md#date-times, decision
 * 0002): the domain's own parser, so what validates is exactly what the mappers can turn into an
 * `Instant`. ajv-formats' RFC 3339 check would refuse the optional seconds. Registered as
 * `iso8601-date-time`, the format of every date-time a request sends, and as `date-time`, which
 * the responses' date-times keep (they always carry seconds).
 */
export const dateTimeFormat: Format = {
  type: 'string',
  validate: (value: string) => Instant.parse(value) !== null,
};
