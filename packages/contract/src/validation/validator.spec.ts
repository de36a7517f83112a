import { fullReservationBody, importBody, minimalReservationBody } from '../../test/sample-bodies';
import { withValue } from '../../test/limit-rows';
import { validationFailure } from './checked';
import { createValidator } from './validator';

const validator = createValidator();

describe('Closed request bodies', () => {
  it.each([
    ['/nickname', fullReservationBody()],
    ['/guest/nickname', fullReservationBody()],
    ['/guest/recentVisits/0/venue', fullReservationBody()],
    ['/prepayment/refundable', fullReservationBody()],
    ['/prepayment/items/0/tax', fullReservationBody()],
    ['/prepayment/imprint/expiresAt', fullReservationBody()],
  ])(
    'When the reservation carries an unknown property at %s, then it is refused naming it',
    (pointer, body) => {
      expect(validator.reservationRequest(withValue(body, pointer, 'x'))).toEqual({
        ok: false,
        details: [{ path: pointer, message: 'unknown property' }],
      });
    },
  );

  it.each(['/rooms/0/colour', '/rooms/0/tables/0/colour', '/rooms/0/decorations/0/colour', '/version'])(
    'When the import carries an unknown property at %s, then it is refused naming it',
    (pointer) => {
      expect(validator.floorPlanImportRequest(withValue(importBody(), pointer, 1))).toEqual({
        ok: false,
        details: [{ path: pointer, message: 'unknown property' }],
      });
    },
  );

  it('When a response-only field is sent in a reservation write, then it is refused as unknown', () => {
    const body = {
      ...minimalReservationBody(),
      id: 'x',
      linkedOrderId: null,
      receivedAt: '2026-11-21T19:00Z',
    };
    const result = validator.reservationRequest(body);
    expect(result.ok ? [] : result.details.map((d) => d.path).sort()).toEqual([
      '/id',
      '/linkedOrderId',
      '/receivedAt',
    ]);
  });

  it('When posOrderId is sent, then it is accepted as the one documented extra', () => {
    expect(validator.reservationRequest({ ...minimalReservationBody(), posOrderId: 'pos-1' })).toMatchObject({
      ok: true,
      value: { posOrderId: 'pos-1' },
    });
  });

  it('When an unknown property name holds "/" or "~", then the pointer escapes them', () => {
    const result = validator.reservationRequest({ ...minimalReservationBody(), 'a/b~c': 1 });
    expect(result).toEqual({ ok: false, details: [{ path: '/a~1b~0c', message: 'unknown property' }] });
  });

  it.each([
    ['an array', []],
    ['a string', 'externalId=1'],
    ['null', null],
    ['nothing', undefined],
  ])('When the body is %s, then it is refused at the root', (_, body) => {
    expect(validator.reservationRequest(body)).toEqual({
      ok: false,
      details: [{ path: '', message: 'must be an object' }],
    });
  });

  it('When a nullable field has the wrong type, then the message names both types', () => {
    expect(validator.reservationRequest({ ...minimalReservationBody(), partyName: 5 })).toEqual({
      ok: false,
      details: [{ path: '/partyName', message: 'must be a string or null' }],
    });
  });

  it('When a body is valid, then the value is returned untouched (no defaults are filled)', () => {
    const body = minimalReservationBody();
    const result = validator.reservationRequest(body);
    expect(result).toEqual({ ok: true, value: minimalReservationBody() });
  });
});

describe('validationFailure', () => {
  it('When details are turned into a failure, then it is validation_failed naming the first and counting the rest', () => {
    const failure = validationFailure([
      { path: '/covers', message: 'must be >= 1' },
      { path: '/externalId', message: 'is required' },
    ]);
    expect(failure).toEqual({
      ok: false,
      code: 'validation_failed',
      message: 'the request is invalid: /covers must be >= 1 (and 1 more)',
      occupiedBy: null,
      details: [
        { path: '/covers', message: 'must be >= 1' },
        { path: '/externalId', message: 'is required' },
      ],
    });
  });
});

describe('Compiling on first use (the CLI)', () => {
  it('When schemas are compiled as they are first used, then every answer is the one the eager validator gives', () => {
    const lazy = createValidator({ compile: 'on-first-use' });
    const bodies = [
      fullReservationBody(),
      minimalReservationBody(),
      withValue(fullReservationBody(), '/guest/nickname', 'x'),
      { externalId: '' },
      null,
    ];

    for (const body of bodies) {
      expect(lazy.reservationRequest(body)).toEqual(validator.reservationRequest(body));
      // A second use answers from the compiled schema.
      expect(lazy.reservationRequest(body)).toEqual(validator.reservationRequest(body));
    }
    expect(lazy.floorPlanImportRequest(importBody())).toEqual(validator.floorPlanImportRequest(importBody()));
    expect(lazy.orderListQuery({ status: 'nope' })).toEqual(validator.orderListQuery({ status: 'nope' }));
  });
});
