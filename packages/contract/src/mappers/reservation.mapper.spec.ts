import { Instant, type Reservation } from '@pis/domain';
import fc from 'fast-check';
import { reservationRequest } from '../../test/reservation-arbitrary';
import { fullReservationBody, minimalReservationBody } from '../../test/sample-bodies';
import { createValidator } from '../validation/validator';
import type { ReservationRequest } from '../wire-types';
import { toReservationInput } from './reservation-request.mapper';
import { toReservationResponse } from './reservation-response.mapper';

const validator = createValidator();
const at = (text: string) => Instant.parse(text)!;

/** What the service adds on an applied write (the domain's decideReservationWrite sets these). */
const stored = (body: ReservationRequest, extra: Partial<Reservation> = {}): Reservation => ({
  ...toReservationInput(body),
  id: 'res-1',
  locationId: 'loc-1',
  linkedOrderId: null,
  arrivedAt: null,
  receivedAt: at('2026-11-20T10:00:01.234567Z'),
  ...extra,
});

describe('toReservationInput', () => {
  it('When the minimal body is mapped, then every default is filled and every date-time is an Instant', () => {
    expect(toReservationInput(minimalReservationBody())).toEqual({
      externalId: 'ot-10001',
      status: 'booked',
      partyName: null,
      covers: 2,
      startsAt: at('2026-11-21T19:00:00Z'),
      endsAt: null,
      tableIds: [],
      guest: null,
      internalNote: null,
      prepayment: null,
      posOrderId: null,
      updatedAt: at('2026-11-20T10:00:00Z'),
    });
  });

  it('When an empty guest and a bare prepayment are mapped, then their defaults are filled', () => {
    const input = toReservationInput({
      ...minimalReservationBody(),
      status: 'booked',
      guest: { recentVisits: [{ occurredAt: '2026-10-01T20:15Z', outcome: 'completed' }] },
      prepayment: { prepaidMinor: 0, currency: 'EUR' },
    } as ReservationRequest);
    expect(input.guest).toEqual({
      name: null,
      phone: null,
      email: null,
      vip: false,
      firstVisit: false,
      visitCount: null,
      occasion: null,
      allergies: null,
      tags: [],
      memberSince: null,
      averageSpendMinor: null,
      noShowCount: null,
      recentVisits: [
        {
          occurredAt: at('2026-10-01T20:15Z'),
          tableLabel: null,
          covers: null,
          spendMinor: null,
          outcome: 'completed',
        },
      ],
    });
    expect(input.prepayment).toEqual({ prepaidMinor: 0, currency: 'EUR', items: [], imprint: null });
  });

  it('When a date-time has nine fraction digits, then the Instant keeps microseconds and truncates the rest', () => {
    const input = toReservationInput(fullReservationBody() as ReservationRequest);
    expect(input.updatedAt.epochMicros).toBe(at('2026-11-20T10:00:00.123456Z').epochMicros);
  });

  it('When a date-time reaches the mapper unvalidated, then it throws (a programming error)', () => {
    expect(() =>
      toReservationInput({ ...minimalReservationBody(), startsAt: 'soon' } as ReservationRequest),
    ).toThrow(/unvalidated/);
  });
});

describe('toReservationResponse', () => {
  it('When the full body is stored and rendered, then every date-time is UTC with milliseconds and Z', () => {
    const response = toReservationResponse(stored(fullReservationBody() as ReservationRequest));
    expect(response).toMatchObject({
      startsAt: '2026-11-21T19:00:00.000Z',
      endsAt: '2026-11-21T21:00:00.500Z',
      updatedAt: '2026-11-20T10:00:00.123Z',
      receivedAt: '2026-11-20T10:00:01.234Z',
      guest: {
        memberSince: '2019-03-01T12:00:00.654Z',
        recentVisits: [
          { occurredAt: '2026-10-01T20:15:00.000Z' },
          { occurredAt: '2026-09-02T00:30:00.000Z' },
        ],
      },
    });
  });

  it('When a reservation is rendered, then it validates against its own response schema', () => {
    const response = toReservationResponse(
      stored(fullReservationBody() as ReservationRequest, {
        linkedOrderId: 'order-1',
        arrivedAt: at('2026-11-21T19:02Z'),
      }),
    );
    expect(validator.check('Reservation', response)).toEqual({ ok: true, value: response });
  });

  it('When the minimal body is rendered, then every nullable field is present and null, and nothing else is', () => {
    const response = toReservationResponse(stored(minimalReservationBody() as ReservationRequest));
    expect(Object.keys(response).sort()).toEqual(
      [
        'id',
        'externalId',
        'status',
        'partyName',
        'covers',
        'startsAt',
        'endsAt',
        'tableIds',
        'guest',
        'internalNote',
        'prepayment',
        'posOrderId',
        'updatedAt',
        'linkedOrderId',
        'arrivedAt',
        'receivedAt',
      ].sort(),
    );
    expect(response).not.toHaveProperty('locationId');
    expect(response).toMatchObject({
      partyName: null,
      endsAt: null,
      guest: null,
      prepayment: null,
      posOrderId: null,
    });
  });

  it('When any valid body is stored and rendered, then the response validates and reads back as the same input', () => {
    fc.assert(
      fc.property(reservationRequest, (body) => {
        expect(validator.reservationRequest(body).ok).toBe(true);
        const input = toReservationInput(body);
        const response = toReservationResponse(stored(body));
        expect(validator.check('Reservation', response).ok).toBe(true);
        const { id: _id, linkedOrderId: _l, arrivedAt: _a, receivedAt: _r, ...asRequest } = response;
        expect(validator.reservationRequest(asRequest).ok).toBe(true);
        expect(toReservationInput(asRequest)).toEqual(input);
      }),
      { numRuns: 200 },
    );
  });
});
