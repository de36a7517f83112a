import { fail, occupied } from '@pis/domain';
import { createValidator } from '../validation/validator';
import { toLocationCommand, toOrderItem, toOrderPayment } from './backoffice.mapper';
import { toErrorBody, toFailureBody } from './error.mapper';

const validator = createValidator();

describe('Backoffice request mappers', () => {
  it('When a location is created without currency, then EUR is used', () => {
    expect(toLocationCommand({ name: 'Trattoria', brand: 'acme' })).toEqual({
      name: 'Trattoria',
      brand: 'acme',
      currency: 'EUR',
      sandbox: false,
    });
  });

  it('When an item is added without quantity, tax rate or course, then they are 1, 0 and other', () => {
    expect(toOrderItem({ label: 'Espresso', amountMinor: 250 })).toEqual({
      label: 'Espresso',
      amountMinor: 250,
      quantity: 1,
      taxRateBps: 0,
      course: 'other',
    });
  });

  it('When a payment is recorded without a tip, then the tip is 0', () => {
    expect(toOrderPayment({ amountMinor: 900, tender: 'cash' })).toEqual({
      amountMinor: 900,
      tipMinor: 0,
      tender: 'cash',
    });
  });
});

describe('Error envelope', () => {
  it('When a table_occupied failure is rendered, then occupiedBy names the holder and the envelope validates', () => {
    const body = toFailureBody(
      occupied('table t-1 is taken', { orderId: 'o-1', reservationExternalId: null }),
    );
    expect(body).toEqual({
      error: {
        code: 'table_occupied',
        message: 'table t-1 is taken',
        occupiedBy: { orderId: 'o-1', reservationExternalId: null },
      },
    });
    expect(validator.check('ErrorEnvelope', body)).toMatchObject({ ok: true });
  });

  it('When a validation failure is rendered, then details are listed and the envelope validates', () => {
    const body = toFailureBody(
      fail('validation_failed', 'bad', [{ path: '/covers', message: 'must be >= 1' }]),
    );
    expect(body.error).toEqual({
      code: 'validation_failed',
      message: 'bad',
      occupiedBy: null,
      details: [{ path: '/covers', message: 'must be >= 1' }],
    });
    expect(validator.check('ErrorEnvelope', body)).toMatchObject({ ok: true });
  });

  it('When an order_closed failure is rendered, then the envelope validates', () => {
    const body = toFailureBody(fail('order_closed', 'order o-1 is closed'));
    expect(body).toEqual({
      error: { code: 'order_closed', message: 'order o-1 is closed', occupiedBy: null },
    });
    expect(validator.check('ErrorEnvelope', body)).toMatchObject({ ok: true });
  });

  it('When a failure other than validation_failed carries details, then they stay out of the envelope', () => {
    const body = toFailureBody(
      fail('unknown_table_id', 'unknown t-9', [{ path: '/tableIds/0', message: 'unknown' }]),
    );
    expect(body).toEqual({ error: { code: 'unknown_table_id', message: 'unknown t-9', occupiedBy: null } });
  });

  it.each(['rate_limited', 'internal_error', 'not_found'] as const)(
    'When the edge answers %s, then the envelope validates with occupiedBy null',
    (code) => {
      const body = toErrorBody(code, 'something');
      expect(validator.check('ErrorEnvelope', body)).toEqual({ ok: true, value: body });
      expect(body.error.occupiedBy).toBeNull();
    },
  );

  it('When an envelope carries an extra field, then the schema refuses it', () => {
    const body = { error: { code: 'not_found', message: 'x', occupiedBy: null, hint: 'y' } };
    expect(validator.check('ErrorEnvelope', body)).toEqual({
      ok: false,
      details: [{ path: '/error/hint', message: 'unknown property' }],
    });
  });
});
