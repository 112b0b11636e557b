/**
 * The save queue (runtime/save-queue.ts): saver calls of a run in order, synchronous ones (SaverNow returning
 * undefined) run at once and are not awaited, and the first error is reported once by settled().
 */
import { describe, expect, it } from "vitest";
import { SaveQueue } from "../../runtime/save-queue.ts";

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 1));

describe("SaveQueue", () => {
  it("runs a call at once when idle, and calls queued behind a pending one in order after it", async () => {
    const q = new SaveQueue();
    const log: string[] = [];
    let release!: () => void;
    q.enqueue(() => void log.push("sync 1"));
    expect(log).toEqual(["sync 1"]);
    q.enqueue(() => {
      log.push("async 2 starts");
      return new Promise<void>((resolve) => (release = resolve)).then(() => void log.push("async 2 ends"));
    });
    q.enqueue(() => void log.push("sync 3"));
    q.enqueue(() => tick().then(() => void log.push("async 4")));
    expect(log).toEqual(["sync 1", "async 2 starts"]);
    const settled = q.settled();
    release();
    await settled;
    expect(log).toEqual(["sync 1", "async 2 starts", "async 2 ends", "sync 3", "async 4"]);
    // idle again: the next call runs at once
    q.enqueue(() => void log.push("sync 5"));
    expect(log.at(-1)).toBe("sync 5");
  });

  it("reports the first error once; calls queued behind a failed one are dropped", async () => {
    const q = new SaveQueue();
    const ran: string[] = [];
    q.enqueue(() => Promise.reject(new Error("first")));
    q.enqueue(() => void ran.push("dropped"));
    await expect(q.settled()).rejects.toThrow("first");
    expect(ran).toEqual([]);
    await expect(q.settled()).resolves.toBeUndefined();
  });

  it("a call that throws synchronously is an error of the queue, not a hang", async () => {
    const q = new SaveQueue();
    const ran: string[] = [];
    q.enqueue(() => {
      throw new Error("thrown");
    });
    q.enqueue(() => void ran.push("next"));
    const outcome = await Promise.race([
      q.settled().then(
        () => "resolved",
        (e: Error) => `rejected: ${e.message}`,
      ),
      new Promise((resolve) => setTimeout(() => resolve("still pending"), 500)),
    ]);
    expect(outcome).toBe("rejected: thrown");
    expect(ran).toEqual(["next"]);
  });
});
