import { types as pgliteTypes } from '@electric-sql/pglite';
import { types as pgTypes, type CustomTypesConfig } from 'pg';
import { utcTimestampText } from '../db-instant';

/**
 * Both drivers hand `timestamptz` over as text in UTC, whatever the session's TimeZone (their
 * default would be a JavaScript Date, which keeps milliseconds only), and `int8` as a number
 * (sequences and counts stay far below 2^53). Everything else keeps the driver's default.
 */
const TIMESTAMPTZ = 1184;
const INT8 = 20;

const toNumber = (value: string) => Number(value);

/** For `pg` clients: the `types` option of the pool. */
export const pgTypeParsers: CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (format !== 'binary' && oid === TIMESTAMPTZ) return utcTimestampText;
    if (format !== 'binary' && oid === INT8) return toNumber;
    return pgTypes.getTypeParser(oid, format ?? 'text');
  }) as CustomTypesConfig['getTypeParser'],
};

/** For PGlite: the `parsers` option of the instance. */
export const pgliteParsers = {
  [pgliteTypes.TIMESTAMPTZ]: utcTimestampText,
  [pgliteTypes.INT8]: toNumber,
};
