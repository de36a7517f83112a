import { ConfigError, createLogger, loadConfig, startTracing, stopTracing } from '@pis/runtime';
import { loadWorkerSettings } from './worker-settings';

/** `pnpm start:worker`: the webhook worker deployment (docs/reference/running.md#deployments). */
async function main(): Promise<void> {
  const { config, settings } = readConfigurationOrExit();
  const logger = createLogger(config.logLevel, undefined, config.logFormat);
  // Tracing starts (when OTEL_* asks for it) before the modules it instruments are loaded:
  // the runtime's pg, ioredis and BullMQ, and the webhook sender's http (docs/reference/running.md#tracing).
  await startTracing('pis-worker');
  const { createWorkerRuntime } = await import('./worker-runtime');
  const runtime = await createWorkerRuntime(config, settings, logger);
  const { metricsPort } = await runtime.start();
  logger.info(
    {
      metricsPort,
      queuePrefix: settings.queuePrefix,
      concurrency: settings.concurrency,
      retryDelaysMs: config.webhookRetryDelaysMs,
      timeoutMs: config.webhookTimeoutMs,
    },
    'webhook worker started',
  );

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing attempts in flight');
    try {
      await runtime.stop();
      await stopTracing();
      logger.info('stopped');
      process.exit(0);
    } catch (err) {
      logger.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

function readConfigurationOrExit() {
  try {
    const config = loadConfig(process.env);
    return { config, settings: loadWorkerSettings(config, process.env) };
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`The webhook worker cannot start. ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
}

main().catch((error) => {
  process.stderr.write(
    `The webhook worker could not start: ${error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exit(1);
});
