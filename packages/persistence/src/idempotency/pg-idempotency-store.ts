import {
  decideIdempotentStart,
  freshClaim,
  IDEMPOTENCY_LEASE_MICROS,
  type IdempotencyClaim,
  type IdempotencyStore,
  type IdempotentRequest,
  type IdempotentStart,
  type Instant,
  type KeptAnswer,
  type KeptRequest,
} from '@pis/domain';
import type { Database } from '../db/database';
import { instantFromDb, instantToDb } from '../db-instant';
import type { SecretCipher } from '../mappers/webhook.mapper';
import type { IdempotencyKeyRow } from '../schemas/idempotency-key.schema';

/** Rounds of insert-or-read before a key that keeps changing under us counts as in progress. */
const MAX_ROUNDS = 5;

/**
 * `idempotency_keys`, one statement per call (its own transaction, never the request's). A key
 * is claimed by inserting it (`ON CONFLICT DO NOTHING`: of concurrent inserts one wins), or by
 * a conditional update that takes over an expired key or a lapsed hold (the update re-checks
 * its condition on the row it waited for, so of concurrent takeovers one wins). What the row
 * holds otherwise is judged by `decideIdempotentStart`. Kept bodies are encrypted with the
 * webhook secrets' cipher (decision 0004): an answer may carry an issued key or a secret.
 */
export class PgIdempotencyStore implements IdempotencyStore {
  constructor(
    private readonly db: Database,
    private readonly cipher: SecretCipher,
  ) {}

  async begin(request: IdempotentRequest, token: string, now: Instant): Promise<IdempotentStart> {
    const claimed: IdempotentStart = {
      kind: 'claimed',
      claim: { scope: request.scope, key: request.key, token },
    };
    const fresh = freshClaim(request.fingerprint, now);
    const values = [
      request.scope,
      request.key,
      request.fingerprint,
      token,
      instantToDb(now),
      instantToDb(fresh.expiresAt),
      instantToDb(fresh.lockedUntil),
    ];
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const inserted = await this.db.query(
        `INSERT INTO idempotency_keys (scope, key, fingerprint, claim, created_at, expires_at, locked_until)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (scope, key) DO NOTHING RETURNING 1`,
        values,
      );
      if (inserted.length === 1) return claimed;
      const [row] = await this.db.query<IdempotencyKeyRow>(
        `SELECT fingerprint, claim, expires_at, locked_until, response_status, response_body
           FROM idempotency_keys WHERE scope = $1 AND key = $2`,
        [request.scope, request.key],
      );
      // Released or pruned between the two statements: insert again.
      if (row === undefined) continue;
      const decision = decideIdempotentStart(this.kept(row), request.fingerprint, now);
      if (decision === 'replay') return { kind: 'replay', answer: this.answerOf(row) };
      if (decision !== 'claim') return { kind: decision };
      const taken = await this.db.query(
        `UPDATE idempotency_keys
            SET fingerprint = $3, claim = $4, created_at = $5, expires_at = $6, locked_until = $7,
                response_status = NULL, response_body = NULL
          WHERE scope = $1 AND key = $2 AND claim = $8
            AND (expires_at <= $5 OR (response_status IS NULL AND locked_until <= $5))
         RETURNING 1`,
        [...values, row.claim],
      );
      if (taken.length === 1) return claimed;
    }
    return { kind: 'in_progress' };
  }

  async renew(claim: IdempotencyClaim, now: Instant): Promise<boolean> {
    const renewed = await this.db.query(
      `UPDATE idempotency_keys SET locked_until = $4
        WHERE scope = $1 AND key = $2 AND claim = $3 AND response_status IS NULL RETURNING 1`,
      [claim.scope, claim.key, claim.token, instantToDb(now.plusMicros(IDEMPOTENCY_LEASE_MICROS))],
    );
    return renewed.length === 1;
  }

  async complete(claim: IdempotencyClaim, answer: KeptAnswer): Promise<boolean> {
    const body = answer.body === null ? null : this.cipher.encrypt(answer.body);
    const kept = await this.db.query(
      `UPDATE idempotency_keys SET response_status = $4, response_body = $5
        WHERE scope = $1 AND key = $2 AND claim = $3 AND response_status IS NULL RETURNING 1`,
      [claim.scope, claim.key, claim.token, answer.status, body],
    );
    return kept.length === 1;
  }

  async release(claim: IdempotencyClaim): Promise<void> {
    await this.db.query(
      `DELETE FROM idempotency_keys WHERE scope = $1 AND key = $2 AND claim = $3 AND response_status IS NULL`,
      [claim.scope, claim.key, claim.token],
    );
  }

  /** One statement: the oldest expired keys, skipping any a request is taking over right now. */
  async prune(now: Instant, batchSize: number): Promise<number> {
    const gone = await this.db.query(
      `DELETE FROM idempotency_keys WHERE (scope, key) IN (
         SELECT scope, key FROM idempotency_keys WHERE expires_at <= $1
          ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING 1`,
      [instantToDb(now), batchSize],
    );
    return gone.length;
  }

  private kept(row: IdempotencyKeyRow): KeptRequest {
    return {
      fingerprint: row.fingerprint,
      answer: row.response_status === null ? null : { status: row.response_status, body: null },
      expiresAt: instantFromDb(row.expires_at),
      lockedUntil: instantFromDb(row.locked_until),
    };
  }

  private answerOf(row: IdempotencyKeyRow): KeptAnswer {
    return {
      status: row.response_status!,
      body: row.response_body === null ? null : this.cipher.decrypt(row.response_body),
    };
  }
}
