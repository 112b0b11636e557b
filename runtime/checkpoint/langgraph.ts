/**
 * LangGraph.js savers (`@langchain/langgraph`'s MemorySaver, `@langchain/langgraph-checkpoint-sqlite`,
 * `-postgres`, …) under compiled graphs. graphc's CheckpointSaver is LangGraph's BaseCheckpointSaver
 * shape — the same methods, configs, checkpoint and tuple fields — so such a saver works as it is; this
 * function only checks that the methods graphc calls are there and gives it graphc's type. No import of
 * LangGraph: the runtime stays dependency-free. What such a saver stores is decided by its own serde.
 */
import { CheckpointError } from "./errors.ts";
import { installCheckpointing } from "../install.ts";
import type { CheckpointSaver } from "./types.ts";

/** The methods of LangGraph's BaseCheckpointSaver that graphc calls (parameters as the saver declares them). */
export interface LangGraphSaverLike {
  getTuple(config: never): Promise<unknown>;
  list(config: never, options?: never): AsyncIterable<unknown>;
  put(config: never, checkpoint: never, metadata: never, newVersions: never): Promise<unknown>;
  putWrites(config: never, writes: never, taskId: never): Promise<unknown>;
  deleteThread(threadId: never): Promise<unknown>;
}

const METHODS = ["getTuple", "list", "put", "putWrites", "deleteThread"] as const;

export function fromLangGraphSaver(saver: LangGraphSaverLike): CheckpointSaver {
  for (const m of METHODS) {
    if (typeof (saver as unknown as Record<string, unknown>)[m] !== "function")
      throw new CheckpointError("INVALID_CONFIG", `A LangGraph saver needs a ${m}() method; this one has none.`, m);
  }
  // checkpointing comes with a saver (install.ts)
  installCheckpointing();
  return saver as unknown as CheckpointSaver;
}
