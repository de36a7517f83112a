import {
  ConfigError,
  createLogger,
  joinClusterMetrics,
  loadConfig,
  startTracing,
  stopTracing,
  type Config,
} from '@pis/runtime';
import cluster from 'node:cluster';
import { superviseApiWorkers } from './cluster-primary';
import { ensureDemoLocation, type DemoLocation } from './demo-setup';
import type { RunningServer } from './http-server';

/** `pnpm start`: the API deployment (with in-process webhook delivery when REDIS_URL is unset). */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger(config.logLevel, undefined, config.logFormat);
  if (config.apiWorkers > 1 && cluster.isPrimary) return superviseApiWorkers(config.apiWorkers, logger);
  if (cluster.isWorker) joinClusterMetrics();
  // Tracing starts (when OTEL_* asks for it) before the modules it instruments are loaded:
  // the runtime (pg, ioredis, express) and the server (docs/reference/running.md#tracing).
  await startTracing('pis-api');
  const { createApiRuntime } = await import('./api-runtime');
  const { listen } = await import('./http-server');
  const runtime = await createApiRuntime(config, logger);
  const embedded = config.databaseUrl === null;
  await runtime.start();
  let server: RunningServer;
  try {
    server = await listen(runtime.app, config.port, config.host ?? undefined);
  } catch (error) {
    await runtime.stop();
    throw bindError(error, config);
  }
  // From here on a signal stops the API gracefully, whatever it is still doing.
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing requests in flight');
    await server.close();
    await runtime.stop();
    await stopTracing();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  // Only now that the port is ours: a failed start must not make the key it never shows.
  const demo = embedded ? await ensureDemoLocation(runtime.deps, config.dataDir) : null;
  logger.info(
    {
      address: server.address,
      port: server.port,
      database: embedded ? `embedded (${config.dataDir})` : 'postgresql',
      redis: config.redis === null ? false : 'clusterNodes' in config.redis ? 'cluster' : true,
    },
    'API listening',
  );
  if (embedded) {
    // The first start of a data directory (the first after `pnpm reset`) also shows its token
    // for the first time, unless BACKOFFICE_TOKEN came from the environment.
    const newToken = demo?.key != null && config.backofficeToken === null;
    printEmbeddedWelcome(baseUrl(config.host, server.port), runtime.secrets.backofficeToken, newToken, demo);
  }
}

function loadConfigOrExit() {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
}

/** A start refused for a reason the operator can fix: said in one sentence, without a stack. */
class StartError extends Error {}

/** A port already taken or an address this machine does not have, said plainly. */
function bindError(error: unknown, config: Config): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  const where = `${config.host ?? 'every interface'} port ${config.port}`;
  if (code === 'EADDRINUSE') {
    return new StartError(`${where} is already in use (EADDRINUSE): stop what uses it or set PORT`);
  }
  if (code === 'EADDRNOTAVAIL') {
    return new StartError(`cannot bind ${where} (EADDRNOTAVAIL): set HOST to an address of this machine`);
  }
  return error;
}

/** How a local operator reaches the API: a wildcard bind address is reached as localhost. */
function baseUrl(host: string | null, port: number): string {
  if (host === null || host === '0.0.0.0' || host === '::') return `http://localhost:${port}`;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/**
 * docs/reference/running.md#first-start: in embedded mode the backoffice token, the demo
 * location's id and, at the start that created it, its key (shown only this once) are
 * printed for the local operator, as shell assignments ready to paste into the README's
 * walkthrough. They go to stdout, never into the structured log, and last: nothing the start
 * does comes after them, and the requests logged at info from then on are not probes or
 * scrapes (those are at debug), so they stay on screen.
 */
function printEmbeddedWelcome(url: string, token: string, newToken: boolean, demo: DemoLocation | null) {
  const exports = [`export PIS=${url}`, `export BACKOFFICE_TOKEN=${token}`];
  if (demo) exports.push(`export LOCATION_ID=${demo.locationId}`);
  if (demo?.key) exports.push(`export API_KEY=${demo.key}`);
  // Said above the export lines, not beside them: a shell may not take a comment after a command.
  const notes = [
    ...(newToken ? ['The backoffice token is new: it was made with the data directory.'] : []),
    demo?.key
      ? 'The demo key (API_KEY) is shown only this once.'
      : 'The demo key was shown at the first start; to begin afresh: stop the API, run `pnpm reset`, start again.',
  ];
  const lines = [
    '',
    `Embedded mode: the API is at ${url}.`,
    ...notes,
    `Paste these ${exports.length} lines into your shell:`,
    ...exports.map((line) => `  ${line}`),
  ];
  process.stdout.write(`${lines.join('\n')}\n\n`);
}

main().catch((error) => {
  const reason =
    error instanceof StartError ? error.message : error instanceof Error ? error.stack : String(error);
  process.stderr.write(`The API could not start: ${reason}\n`);
  process.exit(1);
});
