import type { RequestHandler } from 'express';
import {
  authenticateKey,
  resolveEndpointScope,
  resolveLocation,
  type Credential,
  type Deps,
} from '@pis/domain';
import { fromFailure, HttpError } from '../errors/http-error';

/** Who calls the provider API: a recognised key and the provider it acts for. */
export interface ProviderCaller extends Credential {}

/** A caller acting on one location (every location route). */
export interface ProviderPrincipal extends ProviderCaller {
  locationId: string;
  /** A sandbox location (reached by test keys only): the only kind that reaches the till simulator. */
  sandbox: boolean;
  /** The caller is the location's own provider (a location key). */
  own: boolean;
}

/** `Authorization: Bearer <key>` on every provider endpoint: a location key or a provider key. */
export function providerAuth(deps: Deps): RequestHandler {
  return async (req, res, next) => {
    const outcome = await authenticateKey(deps, { key: bearerToken(req.get('authorization')) ?? '' });
    if (!outcome.ok) return next(fromFailure(outcome));
    const caller: ProviderCaller = outcome.value;
    res.locals.caller = caller;
    next();
  };
}

/**
 * The location of a location route (docs/reference/provider-api.md#choosing-the-location):
 * the location key's own, or the one a provider key names with `Location-Id`. A refusal
 * (400, 422, 403) is kept for `refuseUnlocated`, so the rate limit counts the request first
 * (per key alone, since it acts on no location) and the refusal carries the limit headers; the
 * refusal answers even when the count is over the limit (the location is checked first).
 */
export function locationOfRequest(deps: Deps, options: { providerScope?: boolean } = {}): RequestHandler {
  return async (req, res, next) => {
    const caller = callerOf(res.locals);
    const command = { credential: caller, requested: req.get('location-id') };
    const resolved = options.providerScope
      ? await resolveEndpointScope(deps, command)
      : await resolveLocation(deps, command);
    if (!resolved.ok) {
      res.locals.locationRefusal = fromFailure(resolved);
      return next();
    }
    // A provider key without Location-Id on a webhook endpoint route: its provider-scope endpoints.
    if ('providerScope' in resolved.value) {
      res.locals.providerScope = true;
      return next();
    }
    const principal: ProviderPrincipal = { ...caller, ...resolved.value };
    res.locals.principal = principal;
    next();
  };
}

/** Answers the refusal `locationOfRequest` kept, if any. */
export function refuseUnlocated(): RequestHandler {
  return (_req, res, next) => next(res.locals.locationRefusal as HttpError | undefined);
}

/** Whether `locationOfRequest` refused the request: the rate limit counts it but leaves the answer to that refusal. */
export const unlocated = (locals: Record<string, unknown>): boolean => locals.locationRefusal !== undefined;

/**
 * What the rate limit counts a request against: the key, and the location it acts for when
 * a provider key names one (a location key has one location, so its count stays the key's).
 */
export function rateKeyOf(locals: Record<string, unknown>): string {
  const caller = callerOf(locals);
  const principal = locals.principal as ProviderPrincipal | undefined;
  return principal === undefined || caller.pinnedLocationId !== null
    ? caller.keyId
    : `${caller.keyId}:${principal.locationId}`;
}

export function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer +(\S+) *$/i.exec(header ?? '');
  return match ? match[1]! : null;
}

export function callerOf(locals: Record<string, unknown>): ProviderCaller {
  const caller = locals.caller as ProviderCaller | undefined;
  if (!caller) throw new Error('provider route reached without authentication');
  return caller;
}

/** Whether the request acts on its provider's provider-scope endpoints (no location). */
export const inProviderScope = (locals: Record<string, unknown>): boolean => locals.providerScope === true;

export function principalOf(locals: Record<string, unknown>): ProviderPrincipal {
  const principal = locals.principal as ProviderPrincipal | undefined;
  if (!principal) throw new Error('location route reached without a location');
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

/**
 * The location's webhook endpoint and its deliveries belong to its own provider: a provider
 * key acting for the location has no endpoint there (`404 not_found`).
 */
export function ownEndpointOnly(): RequestHandler {
  return (_req, res, next) =>
    principalOf(res.locals).own
      ? next()
      : next(
          new HttpError(
            404,
            'not_found',
            "this provider has no webhook endpoint at this location: the location's endpoint is managed with its location key",
          ),
        );
}
