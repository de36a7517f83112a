import type { Instant } from '../shared/instant';

export interface Clock {
  now(): Instant;
}

export interface IdGenerator {
  /** A new random UUID (v4 or v7). */
  uuid(): string;
}
