import { at } from '../../test/builders';
import { EVENT_TYPES, type EventType } from '../events/domain-event';
import type { Instant } from '../kernel/instant';
import {
  currentSecret,
  endpointStatus,
  liveSecrets,
  registerEndpoint,
  rotateSecret,
  SECRET_OVERLAP_MICROS,
  wantsEvent,
  type EndpointRegistration,
  type WebhookEndpoint,
  type WebhookSecret,
} from './webhook-endpoint';

const T0 = at('2026-11-01T00:00:00Z');
const NOW = at('2026-11-21T12:00:00Z');
const secret = (value: string, expiresAt: Instant | null): WebhookSecret => ({ secret: value, expiresAt });

const registration = (overrides: Partial<EndpointRegistration> = {}): EndpointRegistration => ({
  id: 'ep-new',
  locationId: 'loc-1',
  url: 'https://provider.example/hooks',
  events: null,
  newSecret: 'whsec_new',
  now: NOW,
  ...overrides,
});

const endpoint = (overrides: Partial<WebhookEndpoint> = {}): WebhookEndpoint => ({
  id: 'ep-1',
  locationId: 'loc-1',
  providerId: 'loc-1',
  description: null,
  singleton: true,
  url: 'https://old.example/hooks',
  events: ['table.freed'],
  secrets: [secret('whsec_current', null)],
  createdAt: T0,
  updatedAt: T0,
  disabledAt: null,
  disabledReason: null,
  failingSince: null,
  ...overrides,
});

describe('registerEndpoint: first registration', () => {
  it('When no endpoint exists, then one is created with the new secret as its only, current secret', () => {
    expect(registerEndpoint(null, registration())).toEqual({
      id: 'ep-new',
      locationId: 'loc-1',
      providerId: 'loc-1',
      description: null,
      singleton: true,
      url: 'https://provider.example/hooks',
      events: [...EVENT_TYPES],
      secrets: [{ secret: 'whsec_new', expiresAt: null }],
      createdAt: NOW,
      updatedAt: NOW,
      disabledAt: null,
      disabledReason: null,
      failingSince: null,
    });
  });

  it.each<[string, EventType[] | null, EventType[]]>([
    [
      'no events (the default)',
      null,
      [
        'floorplan.published',
        'table.occupied',
        'table.freed',
        'table.spend_updated',
        'table.status_changed',
        'order.closed',
      ],
    ],
    [
      'events out of order',
      ['table.spend_updated', 'floorplan.published'],
      ['floorplan.published', 'table.spend_updated'],
    ],
    ['a repeated event', ['table.freed', 'table.freed'], ['table.freed']],
    ['an unknown event among known ones', ['table.freed', 'order.created' as EventType], ['table.freed']],
    ['every event', [...EVENT_TYPES].reverse(), [...EVENT_TYPES]],
  ])('When the registration names %s, then events are %j', (_c, events, expected) => {
    expect(registerEndpoint(null, registration({ events })).events).toEqual(expected);
  });
});

describe('registerEndpoint: registering again', () => {
  const stillLive = secret('whsec_previous', at('2026-11-22T00:00:00Z'));
  const expired = secret('whsec_ancient', at('2026-11-21T11:59:59Z'));
  const existing = endpoint({
    secrets: [secret('whsec_current', null), stillLive, expired],
    disabledAt: at('2026-11-10T00:00:00Z'),
    disabledReason: 'every delivery attempt failed for 120 hours',
    failingSince: at('2026-11-05T00:00:00Z'),
  });

  it('When an endpoint exists, then its id, location, createdAt and live secrets are kept; url, events, updatedAt change', () => {
    const next = registerEndpoint(existing, registration({ events: ['table.occupied'] }));

    expect(next).toEqual({
      id: 'ep-1',
      locationId: 'loc-1',
      providerId: 'loc-1',
      description: null,
      singleton: true,
      url: 'https://provider.example/hooks',
      events: ['table.occupied'],
      secrets: [secret('whsec_current', null), stillLive],
      createdAt: T0,
      updatedAt: NOW,
      disabledAt: null,
      disabledReason: null,
      failingSince: null,
    });
    expect(currentSecret(next)).toBe('whsec_current');
  });

  it('When a disabled endpoint is registered again, then it is enabled and its run of failures starts over', () => {
    expect(registerEndpoint(existing, registration())).toMatchObject({
      disabledAt: null,
      disabledReason: null,
      failingSince: null,
    });
    expect(endpointStatus(registerEndpoint(existing, registration()))).toBe('enabled');
    expect(endpointStatus(existing)).toBe('disabled');
  });
});

describe('rotateSecret', () => {
  it('When a secret is rotated, then the new one is current and the previous one expires 24 h later', () => {
    const rotated = rotateSecret(endpoint(), 'whsec_next', NOW);

    expect(rotated).toEqual({
      ...endpoint(),
      secrets: [secret('whsec_next', null), secret('whsec_current', at('2026-11-22T12:00:00Z'))],
      updatedAt: NOW,
    });
    expect(SECRET_OVERLAP_MICROS).toBe(86_400_000_000n);
  });

  it('When older secrets exist, then live ones keep their expiry and expired ones are dropped', () => {
    const live = secret('whsec_live', at('2026-11-21T18:00:00Z'));
    const gone = secret('whsec_gone', NOW);
    const before = endpoint({ secrets: [secret('whsec_current', null), live, gone] });

    const rotated = rotateSecret(before, 'whsec_next', NOW);

    expect(rotated.secrets).toEqual([
      secret('whsec_next', null),
      secret('whsec_current', at('2026-11-22T12:00:00Z')),
      live,
    ]);
  });

  it('When a secret is rotated twice, then exactly one secret is current', () => {
    const twice = rotateSecret(
      rotateSecret(endpoint(), 'whsec_a', NOW),
      'whsec_b',
      at('2026-11-21T13:00:00Z'),
    );

    expect(twice.secrets.filter((s) => s.expiresAt === null)).toEqual([secret('whsec_b', null)]);
    expect(twice.secrets.map((s) => s.secret)).toEqual(['whsec_b', 'whsec_a', 'whsec_current']);
  });
});

describe('liveSecrets', () => {
  it.each<[string, Instant | null, boolean]>([
    ['the current secret', null, true],
    ['a secret expiring one microsecond later', NOW.plusMicros(1n), true],
    ['a secret expiring exactly now', NOW, false],
    ['a secret that expired a microsecond ago', NOW.plusMicros(-1n), false],
  ])('When a delivery is signed with %s on the list, then it signs: %s', (_c, expiresAt, signs) => {
    const s = secret('whsec_x', expiresAt);

    expect(liveSecrets({ secrets: [s] }, NOW)).toEqual(signs ? [s] : []);
  });
});

describe('currentSecret', () => {
  it('When the current secret is not first, then it is still found', () => {
    expect(currentSecret({ secrets: [secret('old', NOW), secret('cur', null)] })).toBe('cur');
  });

  it('When an endpoint has no current secret, then that broken invariant throws', () => {
    expect(() => currentSecret({ secrets: [secret('old', NOW)] })).toThrow(/current secret/);
  });
});

describe('wantsEvent', () => {
  it.each<[string, Partial<WebhookEndpoint>, EventType, boolean]>([
    ['an enabled endpoint subscribed to the type', { events: ['table.freed'] }, 'table.freed', true],
    ['an enabled endpoint not subscribed to the type', { events: ['table.freed'] }, 'table.occupied', false],
    [
      'a disabled endpoint subscribed to the type',
      { events: ['table.freed'], disabledAt: NOW },
      'table.freed',
      false,
    ],
    ['an endpoint subscribed to nothing', { events: [] }, 'floorplan.published', false],
  ])('When %s meets an event, then it wants it: %s', (_c, overrides, type, wanted) => {
    expect(wantsEvent(endpoint(overrides), type)).toBe(wanted);
  });
});
