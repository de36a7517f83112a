/**
 * A real Redis Cluster of the test's own, for the suites that run on one
 * (`REDIS_CLUSTER_NODES`):
 *
 *   const cluster = await RedisTestCluster.start();   // beforeAll: 3 masters, 3 replicas
 *   ... cluster.target, cluster.nodes, cluster.killMasterOf(key) ...
 *   await cluster.destroy();                          // afterAll
 *
 * Six daemonized redis-servers (`startRedis` of the test set-up, so with the same settings as
 * the shared Redis: no persistence) on free loopback ports, each with its own directory
 * (its nodes.conf, log and pid file) under a temporary directory, formed by
 * `redis-cli --cluster create ... --cluster-replicas 1`. `start` returns once every node says
 * `cluster_state:ok` and every replica has synchronised with its master. A node that does
 * not answer for `nodeTimeoutMs` is failed over: its replica becomes the master of its slots.
 * Reuse one cluster per test file: forming one takes a few seconds.
 */
import { mkdtempSync, readFileSync, rmSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommand, startRedis, waitFor } from '@pis/setup';
import { Redis } from 'ioredis';
import type { RedisTarget } from '../../src';

const NODES = 6;
const READY_TIMEOUT_MS = 60_000;

interface ClusterNode {
  port: number;
  dir: string;
  pid: number;
  killed: boolean;
}

export class RedisTestCluster {
  private constructor(
    private readonly root: string,
    private readonly members: ClusterNode[],
    readonly nodeTimeoutMs: number,
  ) {}

  /**
   * `nodeTimeoutMs`: how long a master may not answer before its replica takes over
   * (`cluster-node-timeout`; Redis's default is 15 s). Long enough that two CPU hogs do not
   * make a busy node look dead.
   */
  static async start({ nodeTimeoutMs = 3_000 }: { nodeTimeoutMs?: number } = {}): Promise<RedisTestCluster> {
    const root = mkdtempSync(join(tmpdir(), 'pis-redis-cluster-'));
    const members: ClusterNode[] = [];
    const cluster = new RedisTestCluster(root, members, nodeTimeoutMs);
    try {
      for (const port of await freeClusterPorts(NODES)) {
        const dir = join(root, String(port));
        mkdirSync(dir);
        await startRedis({
          port,
          bind: ['127.0.0.1'],
          dir,
          logfile: join(dir, 'redis.log'),
          args: [
            '--cluster-enabled',
            'yes',
            '--cluster-config-file',
            'nodes.conf',
            '--cluster-node-timeout',
            String(nodeTimeoutMs),
            '--pidfile',
            join(dir, 'redis.pid'),
          ],
        });
        const pid = await waitFor(async () => readPid(dir) !== null, 10_000).then(() => readPid(dir));
        if (pid === null) throw new Error(`redis-server on ${port} wrote no pid file`);
        members.push({ port, dir, pid, killed: false });
      }
      const created = await runCommand('redis-cli', [
        '--cluster',
        'create',
        ...members.map((m) => `127.0.0.1:${m.port}`),
        '--cluster-replicas',
        '1',
        '--cluster-yes',
      ]);
      if (created.code !== 0) throw new Error(`redis-cli --cluster create failed:\n${created.output}`);
      const formed = await waitFor(() => cluster.settled(), READY_TIMEOUT_MS);
      if (!formed)
        throw new Error('the test Redis Cluster did not reach cluster_state:ok with every replica in sync');
      return cluster;
    } catch (error) {
      await cluster.destroy();
      throw error;
    }
  }

  /** The seed nodes as `REDIS_CLUSTER_NODES` takes them. */
  get nodes(): string {
    return this.members.map((m) => `127.0.0.1:${m.port}`).join(',');
  }

  /** The seed nodes as the client factory takes them. */
  get target(): RedisTarget {
    return { clusterNodes: this.members.map((m) => ({ host: '127.0.0.1', port: m.port })) };
  }

  /** The ports of the masters that hold slots now, as a live node sees them. */
  async masterPorts(): Promise<number[]> {
    const lines = await this.clusterNodes();
    return lines.filter((l) => l.flags.includes('master') && l.holdsSlots).map((l) => l.port);
  }

  /**
   * SIGKILLs the master that holds `key`'s slot (as a crash would) and answers its port; its
   * replica takes the slots over after the node timeout.
   */
  async killMasterOf(key: string): Promise<number> {
    const live = this.members.find((m) => !m.killed)!;
    const probe = await connect(live.port);
    let slot: number;
    try {
      slot = (await probe.call('CLUSTER', 'KEYSLOT', key)) as number;
    } finally {
      probe.disconnect();
    }
    const owner = (await this.clusterNodes()).find((l) => l.flags.includes('master') && l.owns(slot));
    if (!owner) throw new Error(`no master holds slot ${slot}`);
    const member = this.members.find((m) => m.port === owner.port)!;
    process.kill(member.pid, 'SIGKILL');
    member.killed = true;
    return member.port;
  }

  /**
   * Waits until a replica holds the slots of every killed master and every node alive says
   * `cluster_state:ok` again.
   */
  async waitUntilHealthy(timeoutMs = READY_TIMEOUT_MS): Promise<void> {
    const killed = this.members.filter((m) => m.killed).map((m) => m.port);
    const healthy = async () =>
      (await this.allOk()) && !(await this.masterPorts()).some((port) => killed.includes(port));
    if (!(await waitFor(healthy, timeoutMs))) {
      throw new Error('the test Redis Cluster did not come back to cluster_state:ok');
    }
  }

  /**
   * Error replies the live nodes have given since they started, by kind (`CROSSSLOT`, `MOVED`,
   * `CLUSTERDOWN`, ...), from their `INFO errorstats`.
   */
  async errorReplies(): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const member of this.members.filter((m) => !m.killed)) {
      const redis = await connect(member.port);
      try {
        const info = await redis.info('errorstats');
        for (const [, kind, count] of info.matchAll(/^errorstat_([A-Z]+):count=(\d+)/gm)) {
          counts[kind!] = (counts[kind!] ?? 0) + Number(count);
        }
      } finally {
        redis.disconnect();
      }
    }
    return counts;
  }

  /** Commands the live nodes have processed since they started (`INFO stats`). */
  async commandsProcessed(): Promise<number> {
    let total = 0;
    for (const member of this.members.filter((m) => !m.killed)) {
      const redis = await connect(member.port);
      try {
        total += Number(/^total_commands_processed:(\d+)/m.exec(await redis.info('stats'))?.[1] ?? 0);
      } finally {
        redis.disconnect();
      }
    }
    return total;
  }

  /** Deletes every key matching `pattern` from every master (what a master restarted empty leaves); answers how many. */
  async deleteKeys(pattern: string): Promise<number> {
    let deleted = 0;
    for (const port of await this.masterPorts()) {
      const redis = await connect(port);
      try {
        let cursor = '0';
        do {
          const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
          for (const key of keys) deleted += await redis.unlink(key);
          cursor = next;
        } while (cursor !== '0');
      } finally {
        redis.disconnect();
      }
    }
    return deleted;
  }

  /** How many live masters hold at least one key matching `pattern`. */
  async mastersWithKeys(pattern: string): Promise<number> {
    let holding = 0;
    for (const port of await this.masterPorts()) {
      const redis = await connect(port);
      try {
        const [, keys] = await redis.scan('0', 'MATCH', pattern, 'COUNT', 10_000);
        if (keys.length > 0) holding++;
      } finally {
        redis.disconnect();
      }
    }
    return holding;
  }

  /** Stops every node (SIGKILL: nothing of it is kept) and removes its directory. */
  async destroy(): Promise<void> {
    for (const member of this.members) {
      if (member.killed) continue;
      member.killed = true;
      try {
        process.kill(member.pid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
    rmSync(this.root, { recursive: true, force: true });
  }

  private async settled(): Promise<boolean> {
    if (!(await this.allOk())) return false;
    for (const member of this.members) {
      const redis = await connect(member.port);
      try {
        const info = await redis.info('replication');
        if (info.includes('role:slave') && !info.includes('master_link_status:up')) return false;
        if (info.includes('role:slave') && /master_sync_in_progress:1/.test(info)) return false;
      } catch {
        return false;
      } finally {
        redis.disconnect();
      }
    }
    return true;
  }

  private async allOk(): Promise<boolean> {
    for (const member of this.members.filter((m) => !m.killed)) {
      const redis = await connect(member.port);
      try {
        const info = (await redis.call('CLUSTER', 'INFO')) as string;
        if (!info.includes('cluster_state:ok')) return false;
      } catch {
        return false;
      } finally {
        redis.disconnect();
      }
    }
    return true;
  }

  private async clusterNodes(): Promise<
    { port: number; flags: string; holdsSlots: boolean; owns(slot: number): boolean }[]
  > {
    const live = this.members.find((m) => !m.killed)!;
    const redis = await connect(live.port);
    try {
      const text = (await redis.call('CLUSTER', 'NODES')) as string;
      return text
        .trim()
        .split('\n')
        .map((line) => {
          const [, address, flags, , , , , , ...slots] = line.split(' ');
          const ranges = slots
            .filter((s) => !s.startsWith('['))
            .map((s) => s.split('-').map(Number) as [number, number?]);
          return {
            port: Number(/:(\d+)/.exec(address!)![1]),
            flags: flags!,
            holdsSlots: ranges.length > 0,
            owns: (slot: number) => ranges.some(([from, to = from]) => slot >= from && slot <= to),
          };
        });
    } finally {
      redis.disconnect();
    }
  }
}

async function connect(port: number): Promise<Redis> {
  const redis = new Redis(port, '127.0.0.1', {
    lazyConnect: true,
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
    connectTimeout: 2_000,
  });
  redis.on('error', () => undefined);
  await redis.connect().catch(() => undefined);
  return redis;
}

function readPid(dir: string): number | null {
  try {
    const pid = Number(readFileSync(join(dir, 'redis.pid'), 'utf8').trim());
    return pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/**
 * Ports whose cluster bus port (+10000) is free too: below 55536, so from 20000 to 45000,
 * picked at random and checked by listening on both.
 */
async function freeClusterPorts(count: number): Promise<number[]> {
  const ports: number[] = [];
  while (ports.length < count) {
    const port = 20_000 + Math.floor(Math.random() * 25_000);
    if (ports.includes(port) || ports.includes(port + 10_000) || ports.includes(port - 10_000)) continue;
    if ((await canListen(port)) && (await canListen(port + 10_000))) ports.push(port);
  }
  return ports;
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
