import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { HttpError } from '../errors/http-error';
import { bearerToken } from './provider-auth';

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/** The operator surface: `Authorization: Bearer <BACKOFFICE_TOKEN>`, compared in constant time. */
export function backofficeAuth(token: string): RequestHandler {
  const expected = digest(token);
  return (req, _res, next) => {
    const presented = bearerToken(req.get('authorization'));
    if (presented !== null && timingSafeEqual(digest(presented), expected)) return next();
    next(
      new HttpError(
        401,
        'unauthorized',
        'the backoffice token is required: Authorization: Bearer <token>',
        null,
        undefined,
        {
          'WWW-Authenticate': 'Bearer',
        },
      ),
    );
  };
}
