import { startTracing, stopTracing } from '@pis/runtime';

/*
 * `pnpm test:scaled-out` only (its `--setupFilesAfterEnv`): tracing on in every test file, as
 * `main` starts it in a deployed API, exporting where the run's `OTEL_*` variables say.
 *
 * Jest gives each file a module registry of its own, so the SDK is started per file, before
 * the file's own `beforeAll` starts its API, and stopped (its last spans exported) after the
 * file. HTTP is a core module that every file shares with the worker process: the SDK patches
 * its exports in place when `http` is next required, which the two imports below make sure
 * of. pg and ioredis are loaded through Jest's own module loader, which the SDK's require
 * hook does not see: their spans are not made in a Jest run (a deployed process has them).
 */
beforeAll(async () => {
  await startTracing('pis-api');
  await import('node:http');
  await import('node:https');
});

afterAll(async () => {
  await stopTracing();
});
