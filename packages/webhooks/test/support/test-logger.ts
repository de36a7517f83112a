import pino from 'pino';

/** Silent unless TEST_LOG_LEVEL asks otherwise (e.g. `TEST_LOG_LEVEL=debug npx jest ...`). */
export const testLogger = pino({ level: process.env['TEST_LOG_LEVEL'] ?? 'silent' });
