import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '../../../..');

/**
 * `apps/worker/src/main.ts` run through tsx as a child process, with only the environment
 * the test gives (plus PATH). tsx's loader runs inside the one node process (`node --import
 * tsx`) rather than through the tsx CLI, which would put a second process between the test
 * and the worker: a SIGKILL must hit the worker itself.
 */
export class WorkerProcess {
  private output = '';
  private exited: Promise<number | null>;

  private constructor(private readonly child: ChildProcess) {
    const collect = (chunk: Buffer) => {
      this.output += chunk.toString('utf8');
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    this.exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve(signal ? null : code)));
  }

  /** `args`: node's arguments, the sources through tsx unless a test runs the built bundle. */
  static spawn(
    env: Record<string, string>,
    args = ['--import', 'tsx', 'apps/worker/src/main.ts'],
  ): WorkerProcess {
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      // Any free metrics port: several workers run side by side in a test run.
      env: { PATH: process.env['PATH'] ?? '', WORKER_METRICS_PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new WorkerProcess(child);
  }

  /** Spawns and waits for the "webhook worker started" log line. */
  static async start(
    env: Record<string, string>,
    timeoutMs = 30_000,
    args?: string[],
  ): Promise<WorkerProcess> {
    const worker = WorkerProcess.spawn(env, args);
    await worker.waitForOutput(/webhook worker started/, timeoutMs);
    return worker;
  }

  get log(): string {
    return this.output;
  }

  get pid(): number {
    return this.child.pid!;
  }

  async waitForOutput(pattern: RegExp, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!pattern.test(this.output)) {
      if (this.child.exitCode !== null || this.child.signalCode !== null) {
        throw new Error(`the worker exited before printing ${pattern}:\n${this.output}`);
      }
      if (Date.now() > deadline) throw new Error(`the worker never printed ${pattern}:\n${this.output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Sends the signal and resolves with the exit code (null when the signal killed it). */
  async stop(signal: NodeJS.Signals): Promise<number | null> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    return this.exited;
  }

  /** Resolves with the exit code once the process ends by itself. */
  exit(): Promise<number | null> {
    return this.exited;
  }
}
