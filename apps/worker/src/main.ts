import { ConfigError, createLogger, loadConfig } from '@pis/runtime';
import { createWorkerRuntime } from './worker-runtime';
import { loadWorkerSettings } from './worker-settings';

/** `pnpm start:worker`: the webhook worker deployment (docs/reference/running.md#deployments). */
async function main(): Promise<void> {
  const { config, settings } = readConfigurationOrExit();
  const logger = createLogger(config.logLevel, undefined, config.logFormat);
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
