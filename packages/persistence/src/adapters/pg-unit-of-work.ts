import type { DeliverableEvent, Outcome, Transaction, UnitOfWork } from '@pis/domain';
import type { SecretCipher } from '../mappers/webhook.mapper';
import type { Database } from '../db/database';
import { PgTransaction } from './pg-transaction';

/** Called after a commit that appended events, with what it appended (in sequence order per location). */
export type EventsCommittedListener = (events: DeliverableEvent[]) => void;

export interface UnitOfWorkSettings {
  /** How many times the whole work runs at most when the database aborts it for a deadlock or a serialisation failure. */
  maxAttempts?: number;
  /** Reports a listener that threw (the command has committed; the error must not reach it). */
  onListenerError?: (error: unknown) => void;
}

/** deadlock_detected, serialization_failure */
const RETRYABLE = new Set(['40P01', '40001']);

/**
 * One READ COMMITTED transaction per `run` (`Database.transaction`): commit when the work
 * resolves to a success, roll back when it resolves to a failure or throws. Read-side
 * queries called by the work run on the read pool (PostgreSQL) or in this transaction (PGlite).
 */
export class PgUnitOfWork implements UnitOfWork {
  private readonly listeners = new Set<EventsCommittedListener>();
  private readonly maxAttempts: number;

  constructor(
    private readonly db: Database,
    private readonly cipher: SecretCipher,
    private readonly settings: UnitOfWorkSettings = {},
  ) {
    this.maxAttempts = settings.maxAttempts ?? 4;
  }

  /**
   * In-process wake-up for a relay after a commit that appended events, for the embedded
   * mode where LISTEN/NOTIFY may not reach it. Answers a function that unregisters it.
   */
  onEventsCommitted(listener: EventsCommittedListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async run<T>(work: (tx: Transaction) => Promise<Outcome<T>>): Promise<Outcome<T>> {
    for (let attempt = 1; ; attempt++) {
      try {
        const { outcome, committed } = await this.once(work);
        // Committed: the location's reads stay on the primary until a read replica has it.
        if (outcome.ok) await this.db.noteWrite();
        if (committed.length > 0) this.announce(committed);
        return outcome;
      } catch (error) {
        if (attempt >= this.maxAttempts || !RETRYABLE.has(sqlState(error) ?? '')) throw error;
        await pause(attempt);
      }
    }
  }

  /** One attempt; answers the outcome and the events it committed (none when it rolled back). */
  private async once<T>(
    work: (tx: Transaction) => Promise<Outcome<T>>,
  ): Promise<{ outcome: Outcome<T>; committed: DeliverableEvent[] }> {
    const appended: DeliverableEvent[] = [];
    const outcome = await this.db.transaction(
      (sql) => work(new PgTransaction(sql, this.cipher, appended)),
      (result) => result.ok,
    );
    return { outcome, committed: outcome.ok ? appended : [] };
  }

  private announce(events: DeliverableEvent[]): void {
    for (const listener of this.listeners) {
      try {
        listener(events);
      } catch (error) {
        this.settings.onListenerError?.(error);
      }
    }
  }
}

/** The SQLSTATE of a failed statement (TypeORM's QueryFailedError copies the driver error's fields). */
function sqlState(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const e = error as { code?: unknown; driverError?: { code?: unknown } };
  const code = e.code ?? e.driverError?.code;
  return typeof code === 'string' ? code : undefined;
}

/** A short random pause, longer with each attempt, so the retried transactions do not meet again at once. */
function pause(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
}
