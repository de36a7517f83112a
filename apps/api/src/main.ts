import { ConfigError, createLogger, loadConfig } from '@pis/runtime';
import cluster from 'node:cluster';
import { createApiRuntime } from './api-runtime';
import { superviseApiWorkers } from './cluster-primary';
import { seedDemoLocation } from './demo-setup';
import { listen } from './http-server';

/** `pnpm start`: the API deployment (with in-process webhook delivery when REDIS_URL is unset). */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger(config.logLevel);
  if (config.apiWorkers > 1 && cluster.isPrimary) return superviseApiWorkers(config.apiWorkers, logger);
  const runtime = await createApiRuntime(config, logger);
  const embedded = config.databaseUrl === null;
  const demo = embedded ? await seedDemoLocation(runtime.deps) : null;
  await runtime.start();
  const server = await listen(runtime.app, config.port);
  logger.info(
    {
      port: server.port,
      database: embedded ? `embedded (${config.dataDir})` : 'postgresql',
      redis: config.redisUrl !== null,
    },
    'API listening',
  );
  if (embedded) printEmbeddedWelcome(server.port, runtime.secrets.backofficeToken, demo);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing requests in flight');
    await server.close();
    await runtime.stop();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
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

/**
 * Decisions section 9: in embedded mode the backoffice token (and, at first start, the demo
 * location's key, which is shown only this once) are printed for the local operator, as
 * shell assignments ready to paste into the README's walkthrough. They go to stdout, never
 * into the structured log.
 */
function printEmbeddedWelcome(port: number, token: string, demo: { locationId: string; key: string } | null) {
  const lines = [
    '',
    `Embedded mode: the API is at http://localhost:${port}. Paste these into your shell:`,
    `  export PIS=http://localhost:${port}`,
    `  export BACKOFFICE_TOKEN=${token}`,
  ];
  if (demo) {
    lines.push(`  export LOCATION_ID=${demo.locationId}`, `  export API_KEY=${demo.key}   # shown once`);
  } else {
    lines.push('  (the demo location exists already; its key was shown at first start)');
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);
}

main().catch((error) => {
  process.stderr.write(`The API could not start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
