import { join } from 'node:path';
import pino, { type Logger } from 'pino';
import type { LogFormat } from './config';

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

/**
 * The service's logger: JSON lines (or, with `LOG_FORMAT=pretty`, readable lines for a
 * developer's terminal), credentials redacted either way. When `PIS_LOG_CAPTURE_DIR` is set
 * (the test command sets it), every line at every level is also appended to
 * `<dir>/<pid>.ndjson`, exactly as production would write it, so a check after the test
 * run can prove that no secret ever reached a log.
 */
export function createLogger(
  level: string,
  destination?: pino.DestinationStream,
  format: LogFormat = 'json',
): Logger {
  const options = { redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, base: { pid: process.pid } };
  const output = format === 'pretty' ? prettyStream(destination) : destination;
  const captureDir = process.env.PIS_LOG_CAPTURE_DIR;
  if (!captureDir) return pino({ ...options, level }, output);
  const capture = pino.destination({
    dest: join(captureDir, `${process.pid}.ndjson`),
    sync: true,
    mkdir: true,
  });
  const streams: pino.StreamEntry[] = [{ level: 'trace', stream: capture }];
  if (level !== 'silent') streams.push({ level: level as pino.Level, stream: output ?? pino.destination(1) });
  return pino({ ...options, level: 'trace' }, pino.multistream(streams));
}

/**
 * pino-pretty in this process (no worker thread), colours only on a terminal. Loaded only
 * when asked for: production processes never carry it.
 */
function prettyStream(destination?: pino.DestinationStream): pino.DestinationStream {
  const { build } = require('pino-pretty') as typeof import('pino-pretty');
  return build({
    destination: destination ?? 1,
    sync: true,
    colorize: destination === undefined && process.stdout.isTTY === true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
  });
}

/** A key shortened so that it can be shown or logged: enough to recognise, useless to use. */
export function maskKey(key: string): string {
  return key.length <= 16 ? '…' : `${key.slice(0, 16)}…`;
}
