/**
 * Saver calls of one graph level, run strictly in order by a single drain loop: "async" durability queues
 * checkpoints and writes without waiting, and no promise is chained per call in the superstep's hot path.
 */
export class SaveQueue {
  private queue: (() => Promise<unknown> | undefined)[] = [];
  private draining: Promise<void> | undefined;
  private error: { e: unknown } | undefined;

  /**
   * Runs `op` now when nothing is queued (as before: the first call of a drain always ran synchronously),
   * else after the queued ones. An op returning `undefined` completed synchronously (SaverNow): nothing is
   * awaited, so a saver that stores synchronously costs no promise per call.
   */
  enqueue(op: () => Promise<unknown> | undefined): void {
    if (this.draining) this.queue.push(op);
    else {
      try {
        const pending = op();
        if (pending) this.draining = this.drain(pending);
      } catch (e) {
        this.error ??= { e };
      }
    }
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

  /** Awaits `first`, then runs what was queued meanwhile; the first error drops the rest (as a failed save ends the run). */
  private async drain(first: Promise<unknown>): Promise<void> {
    try {
      await first;
      // the array grows while draining (an array iterator reads the length on every step): calls queued
      // meanwhile run in this same loop
      for (const op of this.queue) await op();
    } catch (e) {
      this.error ??= { e };
    } finally {
      this.queue = [];
      this.draining = undefined;
    }
  }
}
