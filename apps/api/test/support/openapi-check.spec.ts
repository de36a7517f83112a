import type { Response } from 'supertest';
import { checkAgainstDocument, operationFor } from './openapi-check';

const response = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  ({ status, body, headers: { 'x-request-id': 'r-1', ...headers } }) as unknown as Response;

const location = { id: 'l-1', name: 'Chez Nous', brand: 'chez', currency: 'EUR', sandbox: false };

describe('checkAgainstDocument (the hook every suite relies on)', () => {
  it.each([
    ['get', '/api/provider/v1/reservations?from=x', 'listReservations'],
    ['post', '/api/provider/v1/reservations', 'createReservation'],
    ['put', '/api/provider/v1/reservations/r-1', 'updateReservation'],
    ['post', '/api/provider/v1/webhook-endpoint/rotate-secret', 'rotateWebhookSecret'],
    ['post', '/api/backoffice/v1/locations/l-1/orders/o-1/void', 'voidOrder'],
    ['get', '/api/provider/v1/nothing', undefined],
    ['delete', '/api/provider/v1/reservations/r-1', undefined],
  ])('When %s %s is requested, then it reaches operation %s', (method, path, operationId) => {
    expect(operationFor(method, path)?.operationId).toBe(operationId);
  });

  it('When a response matches the document, then the check passes', () => {
    expect(() =>
      checkAgainstDocument('post', '/api/backoffice/v1/locations', response(201, location)),
    ).not.toThrow();
  });

  it.each([
    ['an extra property', response(201, { ...location, extra: 1 })],
    ['a missing property', response(201, { id: 'l-1', name: 'Chez Nous', brand: 'chez' })],
    ['an undocumented status', response(202, location)],
  ])('When a response has %s, then the check fails', (_case, res) => {
    expect(() => checkAgainstDocument('post', '/api/backoffice/v1/locations', res)).toThrow(
      /OpenAPI|document/,
    );
  });

  it('When a 401 lacks WWW-Authenticate, then the check fails', () => {
    const envelope = { error: { code: 'unauthorized', message: 'no', occupiedBy: null } };
    const path = '/api/provider/v1/floorplan';

    expect(() => checkAgainstDocument('get', path, response(401, envelope))).toThrow(/WWW-Authenticate/);
    expect(() =>
      checkAgainstDocument('get', path, response(401, envelope, { 'www-authenticate': 'Bearer' })),
    ).not.toThrow();
  });
});
