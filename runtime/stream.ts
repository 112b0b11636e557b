/**
 * Stream modes and the queue behind `stream()`. Loops push `(namespace, mode, payload)` events into a
 * `Sink` (contracts.ts); the root shapes them into LangGraph's public chunk forms (reference §4.3, §6).
 */

/** A stream mode, LangGraph's names: what `stream()` emits. */
export type StreamMode = "values" | "updates" | "custom" | "tasks" | "debug" | "messages" | "checkpoints";

export const M_VALUES = 1;
export const M_UPDATES = 2;
export const M_CUSTOM = 4;
export const M_TASKS = 8;
export const M_DEBUG = 16;
export const M_MESSAGES = 32;
export const M_CHECKPOINTS = 64;

const BITS: Record<StreamMode, number> = {
  values: M_VALUES,
  updates: M_UPDATES,
  custom: M_CUSTOM,
  tasks: M_TASKS,
  debug: M_DEBUG,
  messages: M_MESSAGES,
  checkpoints: M_CHECKPOINTS,
};

export function modeBits(modes: readonly StreamMode[]): number {
  let b = 0;
  for (const m of modes) {
    const bit = BITS[m];
    if (bit === undefined) throw new TypeError(`Unknown stream mode "${String(m)}"`);
    b |= bit;
  }
  return b;
}

/** An unbounded async queue of chunks, closed by `end()` or `fail()`. */
export class ChunkQueue<T> implements AsyncIterableIterator<T> {
  private items: T[] = [];
  private head = 0;
  private waiting: ((r: IteratorResult<T>) => void) | undefined;
  private waitingFail: ((e: unknown) => void) | undefined;
  private ended = false;
  private error: { e: unknown } | undefined;
  /** called when the consumer stops early (return/break) */
  onCancel: (() => void) | undefined;

  put(x: T): void {
    if (this.ended) return;
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = this.waitingFail = undefined;
      w({ value: x, done: false });
    } else this.items.push(x);
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = this.waitingFail = undefined;
      w({ value: undefined, done: true });
    }
  }

  fail(e: unknown): void {
    if (this.ended) return;
    this.ended = true;
    this.error = { e };
    if (this.waitingFail) {
      const f = this.waitingFail;
      this.waiting = this.waitingFail = undefined;
      this.error = undefined;
      f(e);
    }
  }

  next(): Promise<IteratorResult<T>> {
    if (this.head < this.items.length) {
      const v = this.items[this.head++]!;
      if (this.head > 1024 && this.head * 2 > this.items.length) {
        this.items = this.items.slice(this.head);
        this.head = 0;
      }
      return Promise.resolve({ value: v, done: false });
    }
    if (this.error) {
      const { e } = this.error;
      this.error = undefined;
      return Promise.reject(e);
    }
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => {
      this.waiting = resolve;
      this.waitingFail = reject;
    });
  }

  return(): Promise<IteratorResult<T>> {
    if (!this.ended) {
      this.ended = true;
      this.onCancel?.();
    }
    this.items = [];
    this.head = 0;
    this.error = undefined;
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
