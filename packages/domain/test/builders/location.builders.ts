import { randomUUID } from 'node:crypto';
import type { Location } from '../../src';
import { at } from './instants';

/** The command `createLocation` takes. */
export function aLocationCommand(
  overrides: Partial<{ name: string; brand: string; currency: string }> = {},
): { name: string; brand: string; currency: string } {
  return { name: 'Trattoria Uno', brand: 'acme', currency: 'EUR', ...overrides };
}

/** A location record (what `LocationRepository.insert` takes), with a fresh UUID. */
export function aLocation(overrides: Partial<Location> = {}): Location {
  return {
    id: randomUUID(),
    name: 'Trattoria Uno',
    brand: 'acme',
    currency: 'EUR',
    sandbox: false,
    createdAt: at('2026-11-01T09:00:00.123456Z'),
    ...overrides,
  };
}
