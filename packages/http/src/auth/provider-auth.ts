import type { RequestHandler } from 'express';
import { authenticate, type Deps } from '@pis/domain';
import { fromFailure, HttpError } from '../errors/http-error';

export interface ProviderPrincipal {
  locationId: string;
  keyId: string;
  /** A test key of a sandbox location: the only kind that reaches the till simulator. */
  sandbox: boolean;
}

/** `Authorization: Bearer <key>` on every provider endpoint; the key names the location. */
export function providerAuth(deps: Deps): RequestHandler {
  return async (req, res, next) => {
    const outcome = await authenticate(deps, { key: bearerToken(req.get('authorization')) ?? '' });
    if (!outcome.ok) return next(fromFailure(outcome));
    const principal: ProviderPrincipal = outcome.value;
    res.locals.principal = principal;
    next();
  };
}

export function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer +(\S+) *$/i.exec(header ?? '');
  return match ? match[1]! : null;
}

export function principalOf(locals: Record<string, unknown>): ProviderPrincipal {
  const principal = locals.principal as ProviderPrincipal | undefined;
  if (!principal) throw new Error('provider route reached without authentication');
  return principal;
}

/** The till simulator answers test keys only: a live key is `403 sandbox_only`. */
export function sandboxOnly(): RequestHandler {
  return (_req, res, next) =>
    principalOf(res.locals).sandbox
      ? next()
      : next(
          new HttpError(
            403,
            'sandbox_only',
            'the till simulator takes test keys of sandbox locations only; this is a live key',
          ),
        );
}
