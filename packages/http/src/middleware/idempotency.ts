import { createHash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { stringify } from 'safe-stable-stringify';
import type { Clock, IdempotencyClaim, IdempotencyStore, IdGenerator, KeptAnswer } from '@pis/domain';
import { HttpError } from '../errors/http-error';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';

export interface IdempotencyOptions {
  store: IdempotencyStore;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  /** How often a running request renews its hold on its key (a third of the 30 s lease). */
  renewEveryMs?: number;
}

/** Whose keys a request's are: its credential and the location it acts on. */
export type IdempotencyScope = (req: Request, locals: Record<string, unknown>) => string;

/**
 * `Idempotency-Key` on a POST (docs/decisions/0200-idempotency-keys.md). Runs after
 * authentication, the rate limit and the body. Without the header it does nothing. With it,
 * the key is claimed before the operation runs; the operation's answer is kept before it is
 * sent, unless it is a 5xx, which frees the key for a retry. The same key with the same
 * request answers what was kept with `Idempotent-Replayed: true`; with another request it is
 * 422 `idempotency_key_reused`; while the first runs, 409 `idempotency_in_progress`.
 */
export function idempotency(options: IdempotencyOptions, scopeOf: IdempotencyScope): RequestHandler {
  const { store, clock, ids } = options;
  const withKey: RequestHandler = async (req, res, next) => {
    const key = checkedKey(req.headersDistinct['idempotency-key']!);
    const request = { scope: scopeOf(req, res.locals), key, fingerprint: fingerprintOf(req) };
    const start = await store.begin(request, ids.uuid(), clock.now());
    switch (start.kind) {
      case 'claimed':
        keepAnswer(res, start.claim, options);
        return next();
      case 'replay':
        return replay(res, start.answer);
      case 'reused':
        throw new HttpError(
          422,
          'idempotency_key_reused',
          'this Idempotency-Key was used in the last 24 hours for a different request (method, path or body); send a new key with a new request',
        );
      case 'in_progress':
        throw new HttpError(
          409,
          'idempotency_in_progress',
          'the first request with this Idempotency-Key is still running; retry once it has answered',
        );
    }
  };
  // Without the header: one lookup in the parsed headers, no promise (`headersDistinct`, every
  // header's lines, is built on first use, so only a request with a key pays for it).
  return (req, res, next) =>
    req.headers['idempotency-key'] === undefined ? next() : withKey(req, res, next);
}

const KEY_RULE = `${IDEMPOTENCY_KEY_HEADER} must be 1 to 255 printable ASCII characters (U+0020 to U+007E)`;

function checkedKey(sent: string[]): string {
  if (sent.length > 1)
    throw HttpError.validation(422, `${KEY_RULE}, sent once; it was sent ${sent.length} times`);
  const key = sent[0]!;
  if (key.length === 0) throw HttpError.validation(422, `${KEY_RULE}; it is empty`);
  if (key.length > 255) throw HttpError.validation(422, `${KEY_RULE}; it has ${key.length}`);
  if (!/^[\x20-\x7e]+$/.test(key)) {
    throw HttpError.validation(422, `${KEY_RULE}; it has a character outside that range`);
  }
  return key;
}

/**
 * SHA-256 of the method, the path with its query as sent, and the body as canonical JSON
 * (keys sorted, no spacing), so the same object sent with its keys in another order or other
 * whitespace is the same request. An operation that takes no body ignores one, and so does this.
 */
export function fingerprintOf(req: Request): string {
  const body = req.body === undefined ? '' : stringify(req.body);
  return createHash('sha256').update(`${req.method} ${req.originalUrl}\n${body}`, 'utf8').digest('hex');
}

function replay(res: Response, answer: KeptAnswer): void {
  res.status(answer.status).set(REPLAYED_HEADER, 'true');
  if (answer.body === null) res.end();
  else res.type('application/json').send(answer.body);
}

type End = Response['end'];

/**
 * Holds the key while the operation runs (renewing its lease), and keeps the answer when
 * the operation ends it: `res.end` waits until the answer is stored, so a client that got
 * an answer finds it kept. A 5xx, or an answer already streamed, frees the key instead.
 * When the store fails, the answer is still sent (and logged); the key then stays held until
 * its lease lapses.
 */
function keepAnswer(res: Response, claim: IdempotencyClaim, options: IdempotencyOptions): void {
  const { store, clock, logger } = options;
  const renewing = setInterval(() => {
    store.renew(claim, clock.now()).then(
      (held) => {
        if (!held) clearInterval(renewing);
      },
      (err: unknown) => logger.warn({ err }, 'an idempotency key could not be renewed'),
    );
  }, options.renewEveryMs ?? 10_000);
  renewing.unref();
  const end: End = res.end;
  res.end = function (this: Response, ...args: Parameters<End>) {
    res.end = end;
    clearInterval(renewing);
    const status = res.statusCode;
    const settled =
      status >= 500 || res.headersSent
        ? store.release(claim)
        : store.complete(claim, { status, body: bodyOf(args[0]) });
    settled
      .catch((err: unknown) => logger.error({ err }, 'the answer of an idempotent request could not be kept'))
      .finally(() => end.apply(res, args));
    return res;
  } as End;
}

/** The body as `res.send` hands it to `end`: a string or UTF-8 bytes; nothing (a 204) is null. */
function bodyOf(chunk: unknown): string | null {
  const text = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : '';
  return text.length === 0 ? null : text;
}
