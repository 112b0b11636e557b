/**
 * The checkpoint state of one graph level in a run with a saver: the loaded or last saved checkpoint, the
 * channel versions, the pending writes, and what "exit" durability holds back. Made and kept by durable
 * execution (durable.ts); the loop has one only when its run has a saver (`Loop.cp`), and touches it only to
 * version the channels a step wrote. A run without a saver never allocates (or bundles) it.
 */
import type { Checkpoint, CheckpointMetadata, PendingWrite, RunnableConfig } from "./checkpoint/types.ts";
import type { SaveQueue } from "./save-queue.ts";

export class CheckpointState {
  hasCheckpoint = false;
  cpId = "";
  /** channel → version; `maxV` is the newest, `savedMaxV` the newest already in a saved checkpoint */
  versions: Record<string, number> = {};
  /** node → the versions of the channels it saw (LangGraph's versions_seen; only the last step's) */
  seen: Record<string, Record<string, number>> = {};
  maxV = 0;
  savedMaxV = 0;
  cpConfig: RunnableConfig | undefined;
  metadata: CheckpointMetadata | undefined;
  /** the enclosing graphs' checkpoints: namespace → checkpoint id */
  parents: Record<string, string> = {};
  /** the pending writes of the loaded checkpoint */
  pending: PendingWrite[] = [];
  /** "exit" durability: the last checkpoint, saved when the run stops */
  unsaved:
    | {
        parentCfg: RunnableConfig;
        checkpoint: Checkpoint;
        metadata: CheckpointMetadata;
        newVersions: Record<string, number>;
      }
    | undefined;
  /** "exit" durability: task writes held back until the run stops, by task id */
  writeBuf: [string, [string, unknown][]][] = [];
  /** the newest checkpoint the saver holds (loaded or saved): "exit" durability hangs its checkpoint off it */
  storedConfig: RunnableConfig | undefined;
  /** the run replays from a checkpoint it was asked for (`checkpoint_id`) */
  timeTravel = false;

  /**
   * @param saves one queue per run, shared by every subgraph level: a child's checkpoints are then never
   * saved before the parent checkpoint they hang off (async durability), so a crash cannot leave a subgraph
   * history whose parent checkpoint was never written.
   */
  constructor(readonly saves: SaveQueue) {}
}
