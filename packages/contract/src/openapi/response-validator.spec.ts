import { Instant } from '@pis/domain';
import { fullReservationBody } from '../../test/sample-bodies';
import { toErrorBody } from '../mappers/error.mapper';
import { toReservationInput } from '../mappers/reservation-request.mapper';
import { toReservationWriteResponse } from '../mappers/reservation-response.mapper';
import { buildOpenApiDocument } from './build-openapi-document';
import { responseValidator } from './response-validator';

const writeResponse = () =>
  toReservationWriteResponse({
    outcome: 'applied',
    reservation: {
      ...toReservationInput(fullReservationBody()),
      id: 'res-1',
      locationId: 'loc-1',
      linkedOrderId: null,
      arrivedAt: null,
      receivedAt: Instant.parse('2026-11-20T10:00:01Z')!,
    },
  });

describe('responseValidator', () => {
  it('When a real write response is checked against createReservation 201, then it matches', () => {
    expect(responseValidator('createReservation', 201)(writeResponse())).toEqual([]);
  });

  it('When a response carries a property the document does not list, then it is reported', () => {
    const body = writeResponse();
    const leaky = { ...body, reservation: { ...body.reservation, locationId: 'loc-1' } };
    expect(responseValidator('updateReservation', 200)(leaky)).toEqual([
      { path: '/reservation/locationId', message: 'unknown property' },
    ]);
  });

  it.each(['2026-11-20T10:00:01Z', '2026-11-20T11:00:01.000+01:00', '2026-11-20T10:00:01.000123Z'])(
    'When a response renders a date-time as %s, then it is reported (UTC, Z and milliseconds only)',
    (receivedAt) => {
      const body = writeResponse();
      const odd = { ...body, reservation: { ...body.reservation, receivedAt } };
      expect(responseValidator('createReservation', 201)(odd)).toEqual([
        { path: '/reservation/receivedAt', message: expect.stringMatching(/^must match/) },
      ]);
    },
  );

  it('When an error response is checked, then it is held to the envelope', () => {
    const check = responseValidator('updateReservation', 404);
    expect(check(toErrorBody('unknown_reservation', 'no such reservation'))).toEqual([]);
    expect(check({ error: { code: 'unknown_reservation', message: 'x' } })).toEqual([
      { path: '/error/occupiedBy', message: 'is required' },
    ]);
  });

  it('When a status the operation does not document is asked for, then it throws', () => {
    expect(() => responseValidator('createReservation', 404)).toThrow(/does not document status 404/);
  });

  it('When an unknown operation is asked for, then it throws', () => {
    expect(() => responseValidator('deleteReservation', 204)).toThrow(/no operation deleteReservation/);
  });

  it('When a 401 comes without WWW-Authenticate, then the missing header is reported', () => {
    const check = responseValidator('getFloorPlan', 401);
    const body = toErrorBody('unauthorized', 'a valid API key is required');
    expect(check(body, { 'www-authenticate': 'Bearer', 'x-request-id': 'r-1' })).toEqual([]);
    expect(check(body, { 'x-request-id': 'r-1' })).toEqual([
      { path: 'header WWW-Authenticate', message: 'is required' },
    ]);
  });

  it('When a 429 has a Retry-After that is not whole seconds, then it is reported', () => {
    const check = responseValidator('listReservations', 429);
    const body = toErrorBody('rate_limited', 'slow down');
    expect(check(body, { 'retry-after': '1' })).toEqual([]);
    expect(check(body, { 'retry-after': 'soon' })).toEqual([
      { path: 'header Retry-After', message: 'must be a whole number' },
    ]);
  });

  it('When a 204 is checked, then an empty body matches and any content does not', () => {
    const check = responseValidator('deleteWebhookEndpoint', 204);
    expect(check('')).toEqual([]);
    expect(check({})).toEqual([]);
    expect(check({ deleted: true })).toEqual([
      { path: '', message: 'must be empty: the document lists no content' },
    ]);
  });

  it('When the document endpoint answers with the document, then it matches', () => {
    expect(responseValidator('getOpenApiDocument', 200)(buildOpenApiDocument())).toEqual([]);
  });
});
