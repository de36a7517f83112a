/**
 * Where the WAL position of each location's last write through the API is kept, so that every
 * API process can tell whether the read replica has it yet (decision 0195): in Redis when the
 * processes share one, in the process otherwise.
 */
export interface WritePositions {
  /** Keeps `position` for `location` unless a larger one is kept already. */
  record(location: string, position: number): Promise<void>;
  /** The largest position kept for `location`, 0 when none; rejects when it cannot be known. */
  latest(location: string): Promise<number>;
  /** Releases what it holds (a Redis connection). */
  close?(): Promise<void>;
}

/**
 * A `pg_lsn` as text (`16/B374D848`) as a count of bytes: exact up to 2^53 bytes, 8 PiB of
 * WAL, so positions compare as numbers and travel through Redis as decimal text.
 */
export function walBytes(lsn: string): number {
  const match = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i.exec(lsn);
  if (match === null) throw new Error(`not a WAL position: ${lsn}`);
  return parseInt(match[1]!, 16) * 2 ** 32 + parseInt(match[2]!, 16);
}

/**
 * The positions of one API process: right for a single process only (with `API_WORKERS` above
 * 1 the configuration asks for `REDIS_URL`). One entry per location written, never more than
 * the locations there are.
 */
export class InProcessWritePositions implements WritePositions {
  private readonly kept = new Map<string, number>();

  async record(location: string, position: number): Promise<void> {
    if (position > (this.kept.get(location) ?? 0)) this.kept.set(location, position);
  }

  async latest(location: string): Promise<number> {
    return this.kept.get(location) ?? 0;
  }
}
