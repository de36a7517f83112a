import type { Sample } from '../report/stats';

/** The table the bare-pg upsert writes to: a copy of `reservations` (columns, indexes, constraints). */
export const BASELINE_TABLE = 'bench_baseline_reservations';

export type BarePgMode =
  | {
      mode: 'upsert';
      locationId: string;
      prefix: string;
      reservations: number;
      tableIds: string[];
      /** updatedAt of write k is firstWriteMs + k. */
      firstWriteMs: number;
    }
  | { mode: 'list'; locationId: string; firstDayMs: number; days: number; limit: number };

export type BarePgSettings = BarePgMode & {
  databaseUrl: string;
  connections: number;
  durationS: number;
  warmupS: number;
};

/** What a bare-pg child sends back over IPC. */
export interface BaselineReport {
  samples: Sample[];
  errors: number;
  seconds: number;
}
