import type { Instant } from '../kernel/instant';

export interface Clock {
  now(): Instant;
}

export interface IdGenerator {
  /** A new random UUID (v4 or v7). */
  uuid(): string;
}
