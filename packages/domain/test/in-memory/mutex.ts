/** One holder at a time, first come first served. */
export class Mutex {
  private tail: Promise<void> = Promise.resolve();

  async lock<T>(work: () => Promise<T>): Promise<T> {
    let release!: () => void;
    const previous = this.tail;
    this.tail = new Promise<void>((resolve) => (release = resolve));
    await previous;
    try {
      return await work();
    } finally {
      release();
    }
  }
}
