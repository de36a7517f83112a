import { buildOpenApiDocument } from './build-openapi-document';
import { OVERVIEW } from './overview';

type Json = Record<string, any>;
const doc = buildOpenApiDocument() as Json;
const tagged = Object.values(doc.paths as Json).flatMap((methods) =>
  Object.values(methods as Json).map((op) => `${op.tags[0]}/${op.operationId}`),
);

describe('The overview in info.description', () => {
  it('When the overview links an operation, then the document has that operation under that tag', () => {
    const linked = [...OVERVIEW.matchAll(/\]\(#\/(\w+\/\w+)\)/g)].map((m) => m[1]!);

    expect(linked.length).toBeGreaterThan(5);
    expect(linked.filter((link) => !tagged.includes(link))).toEqual([]);
  });

  it('When the overview names an event type, then the document describes that webhook', () => {
    const events = [...OVERVIEW.matchAll(/`([a-z]+\.[a-z_]+)`/g)].map((m) => m[1]!);

    expect(events.length).toBeGreaterThan(0);
    expect(events.filter((type) => !(type in doc.webhooks))).toEqual([]);
  });

  it('When the onboarding is read, then it walks the whole path: import, endpoint, publish, reservations and seating, the till, the test event, the sandbox, the feed and recover', () => {
    const linked = new Set([...OVERVIEW.matchAll(/\]\(#\/\w+\/(\w+)\)/g)].map((m) => m[1]!));
    const path = [
      'createLocation',
      'issueApiKey',
      'importFloorPlan',
      'putWebhookEndpoint',
      'testWebhookEndpoint',
      'publishFloorPlan',
      'getFloorPlan',
      'createReservation',
      'updateReservation',
      'listReservations',
      'openWalkInOrder',
      'addOrderItem',
      'addOrderPayment',
      'setOrderServiceStatus',
      'moveOrder',
      'closeOrder',
      'voidOrder',
      'listWebhookDeliveries',
      'redeliverWebhook',
      'sandboxPublishFloorPlan',
      'sandboxOpenWalkInOrder',
      'listEvents',
      'getTableState',
      'recoverWebhooks',
    ];
    expect(path.filter((operationId) => !linked.has(operationId))).toEqual([]);
  });

  it('When a provider with many venues reads the overview, then it walks its path: provider, key, locations, grant, connections', () => {
    const section = OVERVIEW.slice(OVERVIEW.indexOf('## One provider, many venues'));
    const linked = new Set([...section.matchAll(/\]\(#\/\w+\/(\w+)\)/g)].map((m) => m[1]!));
    const path = [
      'createProvider',
      'issueProviderKey',
      'listLocations',
      'grantConnection',
      'listLocationConnections',
      'revokeConnection',
      'listConnections',
    ];

    expect(path.filter((operationId) => !linked.has(operationId))).toEqual([]);
    expect(section).toMatch(/Location-Id/);
    expect(section).toMatch(/location_required/);
    expect(section).toMatch(/location_not_granted/);
  });

  it('When the onboarding is read, then it names every event type the document describes, the test event included', () => {
    const named = new Set([...OVERVIEW.matchAll(/`([a-z]+\.[a-z_]+)`/g)].map((m) => m[1]!));

    expect(Object.keys(doc.webhooks).filter((type) => !named.has(type))).toEqual([]);
  });

  it('When the document is built, then the overview is its description, onboarding first', () => {
    expect(doc.info.description).toBe(OVERVIEW);
    expect(OVERVIEW).toMatch(/^## Onboarding$/m);
  });
});
