/**
 * A first-come first-served async mutex. Writes (up to their commit) and register snapshots take
 * it; a snapshot also waits for the publication of what was committed before it
 * (writesPublished), so that it is never taken between a commit and the publication of its
 * events: every event is either reflected in the snapshot or delivered to the new queue, never
 * both or neither.
 */
export class Mutex {
  private tail: Promise<void> = Promise.resolve();

  async run<T>(fn: () => Promise<T>): Promise<T> {
    let release!: () => void;
    const next = new Promise<void>((r) => (release = r));
    const previous = this.tail;
    this.tail = previous.then(() => next);
    await previous;
    try {
      return await fn();
    } finally {
      release();
    }
  }
}
