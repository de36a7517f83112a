import type { Request, RequestHandler, Response } from 'express';

/**
 * The last guard of a route: the rest of the request (the use case, its writes and reads) runs
 * on behalf of the request's location, when it names one. Nothing when `within` is unset.
 */
export function onBehalf(
  within: ((locationId: string, next: () => void) => void) | undefined,
  locationOf: (req: Request, res: Response) => string | string[] | undefined,
): RequestHandler[] {
  if (within === undefined) return [];
  return [
    (req, res, next) => {
      const location = locationOf(req, res);
      if (typeof location === 'string') within(location, next);
      else next();
    },
  ];
}
