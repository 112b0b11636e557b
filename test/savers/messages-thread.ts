/**
 * A messages thread driven straight into a saver, shaped as runtime/loop.ts writes it (data field, trigger
 * channel, versions of present channels, last step's versions_seen, the task's write before each
 * checkpoint). Used by the saver tests and bench/storage.ts; free of vitest so scripts can import it.
 */
import type { Checkpoint, CheckpointSaver, CheckpointTuple, RunnableConfig } from "../../runtime/checkpoint/types.ts";

export function message(i: number): Record<string, unknown> {
  return {
    id: `msg-${i}`,
    type: i % 2 === 0 ? "human" : "ai",
    content: `message number ${i}: ${"lorem ipsum dolor sit amet ".repeat(3)}`,
    additional_kwargs: {},
  };
}

/** Runs `steps` steps of a one-node chat loop (input checkpoint first); returns the last checkpoint. */
export async function runMessagesThread(saver: CheckpointSaver, thread: string, steps: number): Promise<CheckpointTuple> {
  let config: RunnableConfig = { configurable: { thread_id: thread } };
  let messages: Record<string, unknown>[] = [];
  for (let step = -1; step < steps; step++) {
    const version = step + 2;
    if (step >= 0) {
      messages = [...messages, message(step)];
      await saver.putWrites(config, [["messages", [message(step)]]], `task-${step}`);
    }
    const cp: Checkpoint = {
      v: 1,
      id: `1ef00000-0000-6000-${(step + 2).toString(16).padStart(4, "0")}-${thread.padEnd(12, "0").slice(0, 12)}`,
      ts: new Date(1_700_000_000_000 + step * 1000).toISOString(),
      channel_values: { messages, "branch:to:agent": null },
      channel_versions: { messages: version, "branch:to:agent": version },
      versions_seen: { agent: { "branch:to:agent": version - 1 } },
    };
    const metadata = { source: step < 0 ? ("input" as const) : ("loop" as const), step, parents: {} };
    config = await saver.put(config, cp, metadata, { messages: version, "branch:to:agent": version });
  }
  return (await saver.getTuple(config))!;
}
