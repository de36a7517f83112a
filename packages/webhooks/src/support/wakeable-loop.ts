import type { Logger } from 'pino';

export interface WakeableLoopOptions {
  /** Pause after a round that found nothing more to do (the poll fallback). */
  idleMs: number;
  /** Pause after a round that threw. */
  errorBackoffMs: number;
  logger: Logger;
  name: string;
}

/**
 * Runs `round` again and again: at once while it reports more work, else after `idleMs`
 * or as soon as `wake()` is called, whichever comes first. A wake that arrives during a
 * round makes the next pause zero, so no signal is lost between a round and its pause.
 * A round that throws is logged once per failure streak and retried after a backoff.
 */
export class WakeableLoop {
  private running: Promise<void> | null = null;
  private stopping = false;
  private woken = false;
  private interruptPause: (() => void) | null = null;
  private failing = false;

  constructor(
    private readonly round: () => Promise<boolean>,
    private readonly options: WakeableLoopOptions,
  ) {}

  start(): void {
    if (this.running) return;
    this.stopping = false;
    this.running = this.run();
  }

  wake(): void {
    this.woken = true;
    this.interruptPause?.();
  }

  /** Lets the current round finish, then stops. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.interruptPause?.();
    await this.running;
    this.running = null;
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      this.woken = false;
      let more = false;
      let failed = false;
      try {
        more = await this.round();
        if (this.failing) this.options.logger.info({ loop: this.options.name }, 'loop recovered');
      } catch (error) {
        if (!this.failing)
          this.options.logger.error({ loop: this.options.name, err: error }, 'loop round failed');
        failed = true;
      }
      this.failing = failed;
      if (this.stopping) break;
      if (failed) await this.pause(this.options.errorBackoffMs);
      else if (!more && !this.woken) await this.pause(this.options.idleMs);
    }
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.interruptPause = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.interruptPause = done;
    });
  }
}
