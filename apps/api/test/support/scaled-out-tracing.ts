import { startTracing, stopTracing } from '@pis/runtime';

/*
 * `pnpm test:scaled-out` only (its `--setupFilesAfterEnv`): tracing on in every test file, as
 * `main` starts it in a deployed API, exporting where the run's `OTEL_*` variables say
 * (decision 0232).
 *
 * Jest gives each file a module registry and a global of its own, so the SDK is started per
 * file, before the file's own `beforeAll` starts its API, and stopped (its last spans
 * exported) after the file. What the service traces itself (the outbox relay, the queue's
 * producer and consumer, each delivery attempt) is traced as in a deployment. The SDK's
 * library instrumentations (incoming and outgoing HTTP, pg, ioredis) hook Node's own
 * `require`, which a test file's sandbox does not go through: their spans are not made in a
 * Jest run (the deployment suites, which start real processes, check them).
 */
beforeAll(async () => {
  await startTracing('pis-api');
});

afterAll(async () => {
  await stopTracing();
});
