import { spawn } from 'node:child_process';
import { connect } from 'node:net';

/** How a command ended and what it printed (stdout and stderr together). */
export interface CommandResult {
  /** The exit code; null when it could not be started or was killed by a signal. */
  code: number | null;
  output: string;
}

/**
 * Runs a command and collects its output. It runs in a session of its own, so a server it
 * starts (pg_ctl, a daemonized redis-server) is not in the terminal's process group and
 * survives a Ctrl-C of the tests. `inherit` shows its output as it comes instead (for
 * apt-get, whose install takes a while); `output` is empty then.
 */
export function runCommand(
  command: string,
  args: readonly string[],
  options: { inherit?: boolean; env?: NodeJS.ProcessEnv } = {},
): Promise<CommandResult> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      detached: !options.inherit,
      stdio: options.inherit ? ['ignore', 'inherit', 'inherit'] : ['ignore', 'pipe', 'pipe'],
      env: options.env ?? process.env,
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    let settled = false;
    const settle = (code: number | null) => {
      if (settled) return;
      settled = true;
      resolve({ code, output });
    };
    child.on('error', (error) => {
      output += String(error);
      settle(null);
    });
    child.on('close', (code) => settle(code));
    // A daemon that kept our pipes open would hold 'close' back; its parent's exit is enough.
    child.on('exit', (code) => setTimeout(() => settle(code), 500).unref());
  });
}

/** Polls `check` until it is true or `timeoutMs` has passed; says which. */
export async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The last lines of a text, for an error message. */
export function tail(text: string, lines = 15): string {
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}

/** Whether something accepts TCP connections at host:port (within `timeoutMs`). Never throws. */
export function acceptsConnections(host: string, port: number, timeoutMs = 2_000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (accepted: boolean) => {
      socket.destroy();
      resolve(accepted);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}
