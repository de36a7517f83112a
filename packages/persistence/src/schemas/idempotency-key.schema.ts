import { EntitySchema } from 'typeorm';
import { instant, text, type InstantText } from './columns';

/** One `Idempotency-Key` of one credential and location; the one module that owns the table is `pg-idempotency-store`. */
export interface IdempotencyKeyRow {
  /** The credential and location the key was sent with. */
  scope: string;
  key: string;
  /** SHA-256 of the request's method, path and canonical body. */
  fingerprint: string;
  /** The token of the request that holds (or held) the key. */
  claim: string;
  created_at: InstantText;
  expires_at: InstantText;
  locked_until: InstantText;
  /** null while the first request runs. */
  response_status: number | null;
  /** The kept body, encrypted (decision 0200); null without a body or while running. */
  response_body: string | null;
}

export const idempotencyKeySchema = new EntitySchema<IdempotencyKeyRow>({
  name: 'idempotency_key',
  tableName: 'idempotency_keys',
  columns: {
    scope: { type: 'text', primary: true },
    key: { type: 'text', primary: true },
    fingerprint: text(),
    claim: text(),
    created_at: instant(),
    expires_at: instant(),
    locked_until: instant(),
    response_status: { type: 'smallint', nullable: true },
    response_body: text(true),
  },
});
