import type { RequestHandler } from 'express';
import { HttpError } from '../errors/http-error';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The service's own ids (locations, tables, orders, keys, deliveries) are UUIDs: a path id
 * of any other shape names nothing, so it is `404 not_found` before any query runs.
 * The provider's `externalId` is free text and is not checked here.
 */
export function uuidParams(): RequestHandler {
  return (req, _res, next) => {
    for (const [name, value] of Object.entries(req.params as Record<string, string>)) {
      if (name !== 'externalId' && name.endsWith('Id') && !UUID.test(value)) {
        return next(new HttpError(404, 'not_found', `there is no ${name.slice(0, -2)} ${value}`));
      }
    }
    next();
  };
}
