/**
 * Saver calls of one graph level, run strictly in order by a single drain loop: "async" durability queues
 * checkpoints and writes without waiting, and no promise is chained per call in the superstep's hot path.
 */
export class SaveQueue {
  private queue: (() => Promise<unknown>)[] = [];
  private draining: Promise<void> | undefined;
  private error: { e: unknown } | undefined;

  enqueue(op: () => Promise<unknown>): void {
    this.queue.push(op);
    if (!this.draining) this.draining = this.drain();
  }

  /** Resolves when everything queued so far is saved; rejects (once) with the first save error. */
  settled(): Promise<void> {
    const d = this.draining;
    if (d) return d.then(() => this.settled());
    if (this.error) {
      const { e } = this.error;
      this.error = undefined;
      return Promise.reject(e);
    }
    return Promise.resolve();
  }

  private async drain(): Promise<void> {
    const q = this.queue;
    try {
      // the array grows while draining: calls queued meanwhile run in this same loop
      for (let i = 0; i < q.length; i++) await q[i]!();
    } catch (e) {
      this.error ??= { e };
    } finally {
      this.queue = [];
      this.draining = undefined;
    }
  }
}
