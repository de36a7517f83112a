import { InProcessDelivery, type AttemptObservation } from '../src';
import { TEST_SETTINGS } from './support/delivery-behaviour';
import {
  appendEvents,
  givenEndpoint,
  givenLocation,
  occupiedEvents,
  openHarness,
  waitForDeliveries,
  type Harness,
} from './support/harness';
import { Receiver } from '@pis/testing/webhooks';
import { testLogger } from './support/test-logger';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the attempt observer', () => {
  let h: Harness;
  let receiver: Receiver;
  let delivery: InProcessDelivery | null = null;
  const seen: AttemptObservation[] = [];

  beforeAll(async () => {
    h = await openHarness();
    receiver = await Receiver.start();
  });
  afterAll(async () => {
    await delivery?.stop();
    await receiver?.close();
    await h?.close();
  });

  const start = async (onAttempt: (o: AttemptObservation) => void) => {
    await delivery?.stop();
    delivery = new InProcessDelivery({
      store: h.persistence.pipeline,
      endpoints: h.persistence.queries.webhooks,
      logger: testLogger,
      settings: { ...TEST_SETTINGS, retryDelaysMs: [] },
      pollMs: 50,
      observer: { onAttempt },
    });
    await delivery.start();
  };

  it('When attempts are recorded, then the observer is told each with its delivery, result and what follows', async () => {
    await start((o) => seen.push(o));
    const locationId = await givenLocation(h);
    await givenEndpoint(h, locationId, receiver.url);
    receiver.respond = (request) =>
      JSON.parse(request.body).data.covers === 1 ? { status: 204 } : { status: 500 };

    const [ok, failing] = await appendEvents(h, locationId, occupiedEvents(2));
    await waitForDeliveries(
      h,
      locationId,
      (all) => all.length === 2 && all.every((d) => d.status !== 'pending'),
    );
    const mine = (eventId: string) => seen.find((o) => o.delivery.event.id === eventId)!;
    // The observer is told right after the record commits; give it that moment.
    for (let i = 0; i < 100 && !(mine(ok!.id) && mine(failing!.id)); i++) await sleep(10);

    expect(mine(ok!.id)).toMatchObject({
      delivery: { locationId, generation: 0, attemptCount: 0 },
      result: { status: 204, error: null },
      decision: { kind: 'succeeded' },
    });
    expect(mine(failing!.id)).toMatchObject({ result: { status: 500 }, decision: { kind: 'failed' } });
  });

  it('When the observer throws, then the attempt is still recorded and the delivery settles', async () => {
    await start(() => {
      throw new Error('a broken metric');
    });
    const locationId = await givenLocation(h);
    await givenEndpoint(h, locationId, receiver.url);
    receiver.respond = () => ({ status: 204 });

    await appendEvents(h, locationId, occupiedEvents(1));
    const [settled] = await waitForDeliveries(h, locationId, (all) => all[0]?.status === 'succeeded');

    expect(settled!.attempts).toHaveLength(1);
  });
});
