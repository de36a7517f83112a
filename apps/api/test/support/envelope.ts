import type { Response } from 'supertest';
import { createValidator } from '@pis/contract';

const validator = createValidator();

/** What a response must never show: a stack frame, a source path, a driver or SQL message. */
const INTERNALS =
  /\bat [\w$.<>]+ \(|node_modules|\/work\/|\.ts:\d+|TypeORM|QueryFailedError|relation "|violates|syntax error at/i;

/**
 * The error envelope of docs/reference/errors.md#envelope: exactly `{error: {code, message, occupiedBy}}`
 * (plus `details` with validation_failed only), `occupiedBy` null unless the code is
 * table_occupied, a JSON body, an `X-Request-Id`, and no internals.
 */
export function expectEnvelope(res: Response, status: number, code: string): Response['body'] {
  const context = `${res.status} ${JSON.stringify(res.body)}`;
  expect({ status: res.status, code: res.body?.error?.code, context }).toEqual({ status, code, context });
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.headers['x-request-id']).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
  expect(Object.keys(res.body)).toEqual(['error']);
  const error = res.body.error as Record<string, unknown>;
  const keys = ['code', 'message', 'occupiedBy', ...(code === 'validation_failed' ? ['details'] : [])];
  expect(keys).toEqual(expect.arrayContaining(Object.keys(error)));
  expect(error['message']).toEqual(expect.any(String));
  expect((error['message'] as string).length).toBeGreaterThan(0);
  if (code === 'table_occupied') {
    expect(Object.keys(error['occupiedBy'] as object).sort()).toEqual(['orderId', 'reservationExternalId']);
  } else {
    expect(error['occupiedBy']).toBeNull();
  }
  expect(validator.check('ErrorEnvelope', res.body)).toEqual({ ok: true, value: res.body });
  expect(res.text).not.toMatch(INTERNALS);
  return res.body;
}
