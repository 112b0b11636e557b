/**
 * The stream events of runs, kept in this process's memory: what `Backend.publish`/`subscribe` need when
 * the worker and the client's connection are in the same process (the SQLite backend). A run's events are
 * kept while it runs and for `keepMs` after its `end` event, so a client that joins a little late (or
 * reconnects with Last-Event-ID) still gets them.
 */
import type { StreamEvent } from "./backend.ts";

interface RunLog {
  events: StreamEvent[];
  ended: boolean;
  wake: Set<() => void>;
}

export class EventLog {
  private readonly runs = new Map<string, RunLog>();

  constructor(private readonly keepMs = 60_000) {}

  private log(runId: string): RunLog {
    let log = this.runs.get(runId);
    if (!log) {
      log = { events: [], ended: false, wake: new Set() };
      this.runs.set(runId, log);
    }
    return log;
  }

  has(runId: string): boolean {
    return this.runs.has(runId);
  }

  publish(runId: string, event: Omit<StreamEvent, "seq">): void {
    const log = this.log(runId);
    if (log.ended) return;
    log.events.push({ seq: log.events.length + 1, ...event });
    if (event.event === "end") {
      log.ended = true;
      setTimeout(() => this.runs.delete(runId), this.keepMs).unref();
    }
    for (const wake of [...log.wake]) wake();
  }

  /** Drops a run's events (its thread was deleted); subscribers get `end`. */
  forget(runId: string): void {
    this.publish(runId, { event: "end", data: null });
    this.runs.delete(runId);
  }

  async *subscribe(runId: string, after: number, signal: AbortSignal): AsyncIterable<StreamEvent> {
    const log = this.runs.get(runId) ?? this.log(runId);
    let next = after;
    while (!signal.aborted) {
      while (next < log.events.length) {
        const event = log.events[next++]!;
        yield event;
        if (event.event === "end") return;
      }
      if (log.ended) return;
      await new Promise<void>((resolve) => {
        const done = () => {
          log.wake.delete(done);
          signal.removeEventListener("abort", done);
          resolve();
        };
        log.wake.add(done);
        signal.addEventListener("abort", done, { once: true });
      });
    }
  }
}
