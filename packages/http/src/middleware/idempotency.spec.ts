import express, { type RequestHandler } from 'express';
import pino from 'pino';
import request from 'supertest';
import { ServiceUnavailableError, type IdempotencyStore } from '@pis/domain';
import { InMemoryIdempotencyStore, ManualClock, RandomIds } from '@pis/testing';
import { errorHandler } from './error-handler';
import { idempotency } from './idempotency';
import { jsonBody } from './json-body';

const logger = pino({ level: 'silent' });

/** One POST route behind the middleware, answering with `handler`. */
function appWith(
  handler: RequestHandler,
  store: IdempotencyStore,
  clock: ManualClock,
  renewEveryMs = 10_000,
) {
  const app = express();
  const keys = idempotency({ store, clock, ids: new RandomIds(), logger, renewEveryMs }, () => 'scope');
  app.post('/things', jsonBody(), keys, handler);
  app.use(errorHandler(logger));
  return app;
}

const send = (app: express.Express, key = 'k-1') =>
  request(app).post('/things').set('Idempotency-Key', key).send({ name: 'a' });

/** A handler that counts its runs and answers 201 with the count, unless `fail` says otherwise. */
function counting(fail: (run: number) => Error | null = () => null) {
  let runs = 0;
  const handler: RequestHandler = (_req, res, next) => {
    runs += 1;
    const error = fail(runs);
    if (error) return next(error);
    res.status(201).json({ run: runs });
  };
  return { handler, runs: () => runs };
}

/** A handler whose first run waits until `open` is called. */
function gated() {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let runs = 0;
  let started!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  const handler: RequestHandler = async (_req, res) => {
    runs += 1;
    if (runs === 1) {
      started();
      await gate;
    }
    res.status(201).json({ run: runs });
  };
  return { handler, open: () => open(), running, runs: () => runs };
}

/** Records when the store was asked to renew a hold, so a test can wait for one. */
class WatchedStore extends InMemoryIdempotencyStore {
  renewals = 0;
  override async renew(...args: Parameters<IdempotencyStore['renew']>): Promise<boolean> {
    this.renewals += 1;
    return super.renew(...args);
  }
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('idempotency middleware', () => {
  it.each([
    ['500', new Error('boom'), 500],
    ['503', new ServiceUnavailableError('database', 'down'), 503],
  ])(
    'When the first run answers %s, then nothing is kept: a retry with the key runs again and its answer is kept',
    async (_s, error, status) => {
      const clock = new ManualClock();
      const { handler, runs } = counting((run) => (run === 1 ? error : null));
      const app = appWith(handler, new InMemoryIdempotencyStore(), clock);

      const failed = await send(app);
      const retried = await send(app);
      const replayed = await send(app);

      expect(failed.status).toBe(status);
      expect(failed.headers['idempotent-replayed']).toBeUndefined();
      expect(retried.status).toBe(201);
      expect(retried.body).toEqual({ run: 2 });
      expect(replayed.headers['idempotent-replayed']).toBe('true');
      expect(replayed.body).toEqual({ run: 2 });
      expect(runs()).toBe(2);
    },
  );

  it('When an answer has no body, then it is kept and replayed without one', async () => {
    const app = appWith(
      (_req, res) => void res.status(204).end(),
      new InMemoryIdempotencyStore(),
      new ManualClock(),
    );

    await send(app).expect(204);
    const again = await send(app).expect(204);

    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.text).toBe('');
  });

  it('When the first request runs past its lease, then its process renews the hold and the key stays in progress', async () => {
    const clock = new ManualClock();
    const store = new WatchedStore();
    const slow = gated();
    const app = appWith(slow.handler, store, clock, 5);

    const first = send(app).then((res) => res);
    await slow.running;
    clock.advance(25_000);
    const seen = store.renewals;
    await until(() => store.renewals > seen + 1);
    clock.advance(15_000);
    const meanwhile = await send(app);
    slow.open();
    const answered = await first;
    const after = await send(app);

    expect(meanwhile.status).toBe(409);
    expect(meanwhile.body.error.code).toBe('idempotency_in_progress');
    expect(answered.body).toEqual({ run: 1 });
    expect(after.body).toEqual({ run: 1 });
    expect(slow.runs()).toBe(1);
  });

  it('When a hold is not renewed past its lease (its process is gone), then a retry runs the request again', async () => {
    const clock = new ManualClock();
    const slow = gated();
    // Renewing only every hour: as if the process holding the key had stopped.
    const app = appWith(slow.handler, new InMemoryIdempotencyStore(), clock, 3_600_000);

    const first = send(app).then((res) => res);
    await slow.running;
    clock.advance(30_000);
    const retried = await send(app);
    slow.open();
    await first;

    expect(retried.status).toBe(201);
    expect(retried.body).toEqual({ run: 2 });
  });

  it('When the answer cannot be kept, then the client still gets it', async () => {
    class FailingStore extends InMemoryIdempotencyStore {
      override async complete(): Promise<boolean> {
        throw new ServiceUnavailableError('database', 'gone');
      }
    }
    const app = appWith(counting().handler, new FailingStore(), new ManualClock());

    const res = await send(app);

    expect(res.status).toBe(201);
    expect(res.body).toEqual({ run: 1 });
  });
});
