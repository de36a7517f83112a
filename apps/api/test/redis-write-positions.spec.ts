import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { dropPrefix, REDIS_URL, testPrefix } from '@pis/testing/webhooks';
import { RedisWritePositions } from '../src/redis-write-positions';

/*
 * The WAL positions of each location's last write, shared by the API processes through a real
 * Redis (decision 0195): the larger position wins whatever the order of the writes, and after
 * a lost connection nothing is trusted until Redis has been back for the allowed lag.
 */
describe('Write positions in Redis', () => {
  const prefix = testPrefix('wal');
  const opened: RedisWritePositions[] = [];
  const positions = (maxLagMs = 1_000, connectionName = `${prefix}-${opened.length}`) => {
    const p = new RedisWritePositions({ redis: { url: REDIS_URL }, maxLagMs, prefix, connectionName });
    opened.push(p);
    return p;
  };
  /** Until `p` answers (its connection is ready and trusted). */
  const answering = async (p: RedisWritePositions, location: string) => {
    for (;;) {
      const answer = await p.latest(location).then(
        (position) => position,
        () => null,
      );
      if (answer !== null) return answer;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  afterAll(async () => {
    await Promise.all(opened.map((p) => p.close()));
    await dropPrefix(prefix);
  });

  it('When two processes record positions of one location in any order, then both read the largest, and an unwritten location reads 0', async () => {
    const [one, two] = [positions(), positions()];
    const location = randomUUID();
    await answering(one, location);
    await answering(two, location);

    await one.record(location, 5_000);
    await two.record(location, 9_000);
    await one.record(location, 7_000);

    expect(await one.latest(location)).toBe(9_000);
    expect(await two.latest(location)).toBe(9_000);
    expect(await two.latest(randomUUID())).toBe(0);
  });

  it('When a position is recorded, then its key expires after a minute, or after ten allowed lags when that is longer', async () => {
    const p = positions(10_000);
    const location = randomUUID();
    await answering(p, location);

    await p.record(location, 1);
    const redis = new Redis(REDIS_URL);
    const ttl = await redis.pttl(`${prefix}:${location}`);
    redis.disconnect();

    expect(ttl).toBeGreaterThan(90_000);
    expect(ttl).toBeLessThanOrEqual(100_000);
  });

  it('When the connection to Redis is lost, then positions are not known until Redis has been back for the allowed lag, and the process still knows its own', async () => {
    const name = `${prefix}-lost`;
    const p = positions(1_000, name);
    const location = randomUUID();
    await answering(p, location);
    await p.record(location, 42);

    // Only this test's connection: the Redis is shared.
    const admin = new Redis(REDIS_URL);
    const list = String(await admin.client('LIST'));
    const id = /id=(\d+) .*name=(\S+)/g;
    const ours = [...list.matchAll(id)].find((m) => m[2] === name)?.[1];
    await admin.client('KILL', 'ID', ours!);
    admin.disconnect();
    const lostAt = performance.now();
    const refused = await p.latest(location).then(
      () => false,
      () => true,
    );
    const known = await answering(p, location);

    expect(ours).toBeDefined();
    expect(refused).toBe(true);
    expect(known).toBe(42);
    // Back after a reconnection, then trusted only once the allowed lag has passed.
    expect(performance.now() - lostAt).toBeGreaterThanOrEqual(1_000);
  });
});
