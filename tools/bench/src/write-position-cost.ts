import { randomUUID } from 'node:crypto';
import { Instant, type Reservation } from '@pis/domain';
import {
  createPersistence,
  InProcessWritePositions,
  openDatabase,
  runMigrations,
  type Database,
} from '@pis/persistence';
import { LocalReplica } from '@pis/persistence/test-support';
import { aReservation } from '@pis/testing';
import { ADMIN_URL, createDatabase, databaseUrl, dropDatabase, withClient } from './database';

/*
 * What keeping each write's WAL position costs the writing process (decision 0195), measured
 * apart from the rest of the machine: applied one-statement reservation updates through the
 * persistence adapters, WRITERS at a time for SECONDS, alternately without a replica and with
 * one (each write made on behalf of its location, so each also reads the primary's WAL
 * position after its commit and keeps it), ROUNDS times each. Alternating in short rounds
 * spreads whatever else the machine does over both sides. Reports writes/s and this process's
 * CPU per write for each side.
 *
 *   pnpm tsx tools/bench/src/write-position-cost.ts   (PIS_COST_WRITERS, PIS_COST_SECONDS, PIS_COST_ROUNDS)
 */
const WRITERS = Number(process.env['PIS_COST_WRITERS'] ?? 32);
const SECONDS = Number(process.env['PIS_COST_SECONDS'] ?? 5);
const ROUNDS = Number(process.env['PIS_COST_ROUNDS'] ?? 4);
/** Each writer has reservations of its own: w, w + WRITERS, w + 2 WRITERS... */
const RESERVATIONS = WRITERS * 200;
const name = `pis_bench_cost_${Date.now()}`;

interface Side {
  label: 'primary only' | 'with a replica';
  db: Database;
  writes: number;
  seconds: number;
  cpuMicros: number;
}

async function main(): Promise<void> {
  await createDatabase(name);
  const url = databaseUrl(name);
  const replica = await LocalReplica.start({ serverUrl: ADMIN_URL });
  const plain = await openDatabase({ databaseUrl: url, poolSize: 10 });
  const routed = await openDatabase(
    { databaseUrl: url, poolSize: 10 },
    { replica: { url: replica.url(url), maxLagMs: 1_000, positions: new InProcessWritePositions() } },
  );
  try {
    await runMigrations(plain);
    const location = randomUUID();
    await withClient(url, (c) =>
      c.query(
        `INSERT INTO locations (id, name, brand, currency, created_at) VALUES ($1, 'Cost', 'bench', 'EUR', now())`,
        [location],
      ),
    );
    const seeded = createPersistence(plain, { cipher: { encrypt: (s) => s, decrypt: (s) => s } });
    for (let i = 0; i < RESERVATIONS; i++) await seeded.plainWrites.create(reservation(location, i, 0));
    const sides: Side[] = [
      { label: 'primary only', db: plain, writes: 0, seconds: 0, cpuMicros: 0 },
      { label: 'with a replica', db: routed, writes: 0, seconds: 0, cpuMicros: 0 },
    ];
    let version = 1;
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
        const writes = createPersistence(side.db, {
          cipher: { encrypt: (s) => s, decrypt: (s) => s },
        }).plainWrites;
        const cpu = process.cpuUsage();
        const started = performance.now();
        const until = started + SECONDS * 1_000;
        let done = 0;
        await Promise.all(
          Array.from({ length: WRITERS }, async (_, w) => {
            for (let k = 0; performance.now() < until; k++) {
              const r = reservation(location, (w + WRITERS * k) % RESERVATIONS, version++);
              const written = await side.db.onBehalfOf(location, () =>
                writes.update(location, r, r.receivedAt),
              );
              if (written.kind !== 'applied') throw new Error(`a write was ${written.kind}, not applied`);
              done++;
            }
          }),
        );
        const used = process.cpuUsage(cpu);
        side.writes += done;
        side.seconds += (performance.now() - started) / 1_000;
        side.cpuMicros += used.user + used.system;
      }
    }
    const report = sides.map((s) => ({
      side: s.label,
      writesPerSecond: Math.round(s.writes / s.seconds),
      processCpuMicrosPerWrite: Math.round(s.cpuMicros / s.writes),
    }));
    const reads = routed.replicaStatus();
    console.log(
      JSON.stringify(
        { writers: WRITERS, seconds: SECONDS, rounds: ROUNDS, report, replica: reads?.state },
        null,
        2,
      ),
    );
  } finally {
    await routed.close();
    await plain.close();
    await replica.destroy();
    await dropDatabase(name);
  }
}

/** Reservation `n` of the location, written as version `v` (every version newer than the last). */
function reservation(locationId: string, n: number, v: number): Reservation {
  const at = Instant.fromEpochMillis(Date.parse('2026-01-01T00:00:00Z') + v);
  return aReservation(locationId, { externalId: `cost-${n}`, updatedAt: at, receivedAt: at });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
