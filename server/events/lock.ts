/**
 * A first-come first-served async mutex. Writes (commit + publish) and register snapshots take
 * it, so that a snapshot is never taken between a commit and the publication of its events:
 * every event is either reflected in the snapshot or delivered to the new queue, never both or
 * neither.
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
