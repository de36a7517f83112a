import { createHash } from 'node:crypto';
import type { Express } from 'express';
import pino from 'pino';
import request from 'supertest';
import {
  newApiKey,
  type Deps,
  type IdempotencyStore,
  type IdGenerator,
  type KeyKind,
  type KeyMode,
  type SecretFactory,
} from '@pis/domain';
import {
  createValidator,
  findOperation,
  responseValidator,
  type Example,
  type OperationExamples,
} from '@pis/contract';
import { createInMemoryDeps, InMemoryIdempotencyStore, type InMemoryDeps } from '@pis/testing';
import { createHttpApp, KeyRateLimiter } from '../../src';

/** Where the examples' clock starts: the day before the reservations of the fixtures. */
export const EXAMPLES_START = '2026-11-20T09:00:00.000Z';
export const BACKOFFICE_TOKEN = 'example-backoffice-token';

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/** UUIDs (version 4 bits set) that look random but are the same on every run. */
export class ExampleIds implements IdGenerator {
  private count = 0;

  uuid(): string {
    this.count += 1;
    const h = sha256(`pis example id ${this.count}`).toString('hex');
    const variant = '89ab'[parseInt(h[16]!, 16) & 3];
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }
}

/** Keys and webhook secrets of the production shapes, the same on every run. */
export class ExampleSecrets implements SecretFactory {
  private count = 0;

  private readonly bytes = (length: number): Buffer => {
    let out = Buffer.alloc(0);
    while (out.length < length) {
      this.count += 1;
      out = Buffer.concat([out, sha256(`pis example secret ${this.count}`)]);
    }
    return out.subarray(0, length);
  };

  apiKey(brand: string, mode: KeyMode, kind?: KeyKind): string {
    return newApiKey(brand, mode, this.bytes, kind);
  }

  webhookSecret(): string {
    return `whsec_${this.bytes(32).toString('base64')}`;
  }
}

export interface Call {
  /** The bearer credential: an API key, the backoffice token, or none. */
  as: string | null;
  params?: Record<string, string>;
  query?: string;
  body?: unknown;
  /** The status the journey expects: anything else stops the recording. */
  expect: number;
  /** The example's name and summary; an error's name is its code. */
  name?: string;
  summary?: string;
  /** Sends `body` as these raw bytes with this content type instead of JSON. */
  raw?: { type: string; bytes: string };
  /** false: a step of the journey whose answer is no example. */
  keep?: false;
  /** Request headers besides the credential, e.g. an `Idempotency-Key`. */
  headers?: Record<string, string>;
}

/**
 * The API over in-memory adapters with a manual clock and deterministic ids and secrets, and a
 * recorder of what its operations answer. Every answer is checked against the OpenAPI document
 * before it is kept, so an example can only be a response the document allows.
 */
export class ExampleWorld {
  readonly memory: InMemoryDeps;
  readonly app: Express;
  readonly operations: Record<string, OperationExamples> = {};
  private readyNow = true;
  private readonly idempotency = new HeldAnswers(new InMemoryIdempotencyStore());

  constructor() {
    this.memory = createInMemoryDeps({
      ids: new ExampleIds(),
      now: EXAMPLES_START,
      requireHttps: true,
      secrets: new ExampleSecrets(),
    });
    this.memory.webhookTests.answer = { delivered: true, status: 204, durationMs: 38, error: null };
    this.app = this.appWith(null);
  }

  get deps(): Deps {
    return this.memory.deps;
  }

  /** The same service answering with a per-key rate limit of `rps`. */
  appWith(rateLimiter: KeyRateLimiter | null): Express {
    return createHttpApp({
      deps: this.memory.deps,
      validator: createValidator(),
      openApiDocument: { info: { title: 'Reservation Provider Integration Service' } },
      logger: pino({ level: 'silent' }),
      backofficeToken: BACKOFFICE_TOKEN,
      rateLimiter,
      hooks: { keyRevoked: () => undefined },
      ready: async () => this.readyNow,
      webhookUrls: { webhookAllowInsecureUrls: false, webhookAllowPrivateUrls: false },
      idempotency: this.idempotency,
    });
  }

  /**
   * Runs `work` while the answers of `Idempotency-Key` requests wait before they are kept, so
   * a request sent in `work` is still running for the service when another arrives.
   */
  async answersHeld<T>(work: (kept: Promise<void>) => Promise<T>): Promise<T> {
    return this.idempotency.holding(work);
  }

  /** Runs `work` while the readiness probe answers that the database is not reachable. */
  async unready<T>(work: () => Promise<T>): Promise<T> {
    this.readyNow = false;
    try {
      return await work();
    } finally {
      this.readyNow = true;
    }
  }

  advance(minutes: number): void {
    this.memory.clock.advance(minutes * 60_000);
  }

  /** Sends one request to `operationId` and records it and its answer; answers the body. */
  async call(operationId: string, call: Call, app: Express = this.app): Promise<any> {
    const op = findOperation(operationId);
    const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = call.params?.[name];
      if (value === undefined) throw new Error(`${operationId}: no value for {${name}}`);
      return encodeURIComponent(value);
    });
    let req = request(app)[op.method](call.query ? `${path}?${call.query}` : path);
    if (call.as !== null) req = req.set('Authorization', `Bearer ${call.as}`);
    for (const [name, value] of Object.entries(call.headers ?? {})) req = req.set(name, value);
    if (call.raw) req = req.set('Content-Type', call.raw.type).send(call.raw.bytes);
    else if (call.body !== undefined) req = req.send(call.body as object);
    const res = await req;
    const body = res.status === 204 ? undefined : res.body;
    if (res.status !== call.expect) {
      throw new Error(
        `${operationId} answered ${res.status}, the journey expects ${call.expect}: ${JSON.stringify(body)}`,
      );
    }
    const off = responseValidator(operationId, res.status)(body, res.headers);
    if (off.length > 0)
      throw new Error(`${operationId} ${res.status} is off the document: ${JSON.stringify(off)}`);
    if (body !== undefined && call.keep !== false) this.keep(operationId, res.status, call, body);
    return body;
  }

  private keep(operationId: string, status: number, call: Call, body: any): void {
    const examples = (this.operations[operationId] ??= { responses: {} });
    const error = status >= 400 ? (body.error as { code: string; message: string }) : null;
    const name = error?.code ?? call.name;
    if (name === undefined) throw new Error(`${operationId} ${status}: a success example needs a name`);
    const summary = error ? error.message : (call.summary ?? name);
    const byName = (examples.responses[String(status)] ??= {});
    if (byName[name]) throw new Error(`${operationId} ${status}: a second example named ${name}`);
    byName[name] = { summary, value: body };
    if (!error && call.body !== undefined && !call.raw) {
      (examples.request ??= {})[name] = { summary, value: call.body };
    }
  }
}

/** The in-memory key store, whose `complete` can be made to wait (a first request still running). */
class HeldAnswers implements IdempotencyStore {
  private gate: Promise<void> | null = null;
  private arrived: () => void = () => {};

  constructor(private readonly store: IdempotencyStore) {}

  /** Runs `work` with answers held; `kept` settles when the first answer waits to be kept. */
  async holding<T>(work: (kept: Promise<void>) => Promise<T>): Promise<T> {
    let open = () => {};
    this.gate = new Promise((resolve) => (open = resolve));
    const kept = new Promise<void>((resolve) => (this.arrived = resolve));
    try {
      return await work(kept);
    } finally {
      this.gate = null;
      open();
    }
  }

  begin: IdempotencyStore['begin'] = (...args) => this.store.begin(...args);
  renew: IdempotencyStore['renew'] = (...args) => this.store.renew(...args);
  release: IdempotencyStore['release'] = (...args) => this.store.release(...args);
  prune: IdempotencyStore['prune'] = (...args) => this.store.prune(...args);
  complete: IdempotencyStore['complete'] = async (...args) => {
    if (this.gate) this.arrived();
    await this.gate;
    return this.store.complete(...args);
  };
}
