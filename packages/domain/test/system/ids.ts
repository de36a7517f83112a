import { randomUUID } from 'node:crypto';
import type { IdGenerator } from '../../src';

/**
 * Deterministic, UUID-shaped (version 4 and variant bits set) ids that count up:
 * `00000000-0000-4000-8000-000000000001`, ...; lexical order is creation order.
 */
export class SequentialIds implements IdGenerator {
  private next = 0;

  constructor(private readonly prefix = '00000000') {
    if (!/^[0-9a-f]{8}$/.test(prefix)) throw new Error('the prefix must be 8 lower-case hex digits');
  }

  uuid(): string {
    this.next += 1;
    return `${this.prefix}-0000-4000-8000-${this.next.toString(16).padStart(12, '0')}`;
  }
}

export class RandomIds implements IdGenerator {
  uuid(): string {
    return randomUUID();
  }
}
