import { Harness } from './harness';
import { Receiver } from './receiver';

/**
 * For a file whose webhooks are delivered to a real receiver: before its tests, a receiver and
 * a harness whose delivery runs (two retries 30 ms apart, a 2-second timeout), given to
 * `started`; after them, both are stopped.
 */
export function deliveringToReceiver(started: (file: { h: Harness; receiver: Receiver }) => void): void {
  let h: Harness | undefined;
  let receiver: Receiver | undefined;
  beforeAll(async () => {
    receiver = await Receiver.start();
    h = await Harness.start({ WEBHOOK_RETRY_DELAYS_MS: '30,30', WEBHOOK_TIMEOUT_MS: '2000' });
    await h.runtime.start();
    started({ h, receiver });
  });
  afterAll(async () => {
    await h?.stop();
    await receiver?.close();
  });
}
