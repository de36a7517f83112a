import { createValidator } from './validator';

const validator = createValidator();
const window = { from: '2026-11-01T00:00Z', to: '2026-11-08T00:00Z' };

describe('Query parameters', () => {
  it.each([
    ['1', 1],
    ['100', 100],
    ['500', 500],
  ])('When limit=%s, then it is accepted as the integer %d', (limit, expected) => {
    expect(validator.reservationListQuery({ ...window, limit })).toEqual({
      ok: true,
      value: { ...window, limit: expected },
    });
  });

  it.each([
    ['0', 'must be >= 1'],
    ['501', 'must be <= 500'],
    ['-1', 'must be >= 1'],
    ['1.5', 'must be an integer'],
    ['1e2', 'must be an integer'],
    ['abc', 'must be an integer'],
    ['', 'must be an integer'],
    [' 5', 'must be an integer'],
    [['1', '2'], 'must be an integer'],
  ])('When limit=%j, then it is refused: %s', (limit, message) => {
    expect(validator.reservationListQuery({ ...window, limit })).toEqual({
      ok: false,
      details: [{ path: '/limit', message }],
    });
  });

  it('When from and to are missing, then both are reported as required', () => {
    expect(validator.reservationListQuery({})).toEqual({
      ok: false,
      details: [
        { path: '/from', message: 'is required' },
        { path: '/to', message: 'is required' },
      ],
    });
  });

  it('When from is not a date-time, then it is refused at /from', () => {
    const result = validator.reservationListQuery({ ...window, from: 'yesterday' });
    expect(result.ok ? [] : result.details.map((d) => d.path)).toEqual(['/from']);
  });

  it('When a parameter is misspelt, then it is refused instead of ignored', () => {
    expect(validator.reservationListQuery({ ...window, limt: '5' })).toEqual({
      ok: false,
      details: [{ path: '/limt', message: 'unknown property' }],
    });
  });

  it.each([
    ['pending', true],
    ['succeeded', true],
    ['failed', true],
    ['done', false],
  ])('When deliveries are filtered by status=%s, then the query is accepted: %s', (status, ok) => {
    expect(validator.deliveryListQuery({ status }).ok).toBe(ok);
  });

  it.each([
    ['open', true],
    ['closed', true],
    ['voided', true],
    ['paid', false],
  ])('When orders are filtered by status=%s, then the query is accepted: %s', (status, ok) => {
    expect(validator.orderListQuery({ status }).ok).toBe(ok);
  });

  it('When the query object is not an object, then it reads as empty', () => {
    expect(validator.orderListQuery(undefined)).toEqual({ ok: true, value: {} });
  });
});
