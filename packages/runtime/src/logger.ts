import pino, { type Logger } from 'pino';

export type { Logger };

/** Paths that may hold credentials; pino replaces them before a line is written. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'authorization',
  'key',
  'apiKey',
  'secret',
  'secrets',
  'token',
  'backofficeToken',
  '*.key',
  '*.apiKey',
  '*.secret',
  '*.secrets',
  '*.token',
  '*.backofficeToken',
];

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, base: { pid: process.pid } },
    destination,
  );
}

/** A key shortened so that it can be shown or logged: enough to recognise, useless to use. */
export function maskKey(key: string): string {
  return key.length <= 16 ? '…' : `${key.slice(0, 16)}…`;
}
