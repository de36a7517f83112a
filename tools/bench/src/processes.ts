import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';

/** The repository root: the nearest directory above this file holding `pnpm-workspace.yaml`. */
export const ROOT = findRoot();

function findRoot(): string {
  for (let dir = process.cwd(); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'pnpm-workspace.yaml'))) return dir;
    if (dirname(dir) === dir) return join(__dirname, '../../..');
  }
}

/**
 * A child started in its own process group (`detached`), so that every process it forks
 * (cluster workers) can be measured by group and killed with it. Started directly with
 * `process.execPath`: npx and pnpm wrappers would not forward signals.
 */
export interface GroupProcess {
  name: string;
  child: ChildProcess;
  /** The process group id (the child's pid). */
  group: number;
  /** The last 20,000 characters of its stdout and stderr. */
  output(): string;
  exited(): boolean;
  stop(): Promise<void>;
}

const live = new Set<GroupProcess>();

export interface StartOptions {
  env?: Record<string, string>;
  /** Arguments to node before the entry (e.g. `--cpu-prof`). */
  nodeArgs?: string[];
  /** Modules preloaded with `--import` (e.g. the memory probe), after tsx for a TypeScript entry. */
  imports?: string[];
  /** Appends its output there. */
  logFile?: string;
  /** Gives the child an IPC channel (for baselines reporting their samples). */
  ipc?: boolean;
}

/** Starts an entry point (a `.ts` one through `--import tsx`) with node in its own process group. */
export function startGroup(name: string, entry: string, options: StartOptions = {}): GroupProcess {
  const imports = [...(entry.endsWith('.ts') ? ['tsx'] : []), ...(options.imports ?? [])];
  const args = [...(options.nodeArgs ?? []), ...imports.flatMap((m) => ['--import', m]), entry];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...options.env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe', ...(options.ipc ? (['ipc'] as const) : [])],
  });
  if (child.pid === undefined) throw new Error(`${name} could not be started`);
  let output = '';
  const log = options.logFile ? createWriteStream(options.logFile, { flags: 'a' }) : null;
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
    log?.write(chunk);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exit = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const group = child.pid;
  const handle: GroupProcess = {
    name,
    child,
    group,
    output: () => output,
    exited: () => child.exitCode !== null || child.signalCode !== null,
    async stop() {
      if (!handle.exited()) {
        signalGroup(group, 'SIGTERM');
        const timer = setTimeout(() => signalGroup(group, 'SIGKILL'), 15_000);
        await exit;
        clearTimeout(timer);
      }
      // Cluster workers may outlive the primary for a moment.
      signalGroup(group, 'SIGKILL');
      live.delete(handle);
      log?.end();
    },
  };
  live.add(handle);
  return handle;
}

export function signalGroup(group: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-group, signal);
  } catch {
    // the group is gone already
  }
}

/** Stops every group this process started (graceful first); for cleanup after a failure or Ctrl-C. */
export async function stopAllGroups(): Promise<void> {
  await Promise.all([...live].map((p) => p.stop()));
}

/** Last resort from an `exit` handler (synchronous): SIGKILL to every group still known. */
export function killAllGroupsNow(): void {
  for (const p of live) signalGroup(p.group, 'SIGKILL');
}

export async function waitFor(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs = 60_000,
  abandon?: () => string | null,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    const reason = abandon?.();
    if (reason) throw new Error(`gave up waiting for ${what}: ${reason}`);
    await sleep(200);
  }
  throw new Error(`timed out waiting for ${what}`);
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}
