/**
 * graphc's savers under LangGraph.js graphs: `asLangGraphSaver(new SqliteSaver("app.db"))` is a
 * BaseCheckpointSaver that `new StateGraph(…).compile({ checkpointer })` takes. The other direction (a
 * LangGraph saver under a compiled graph) needs no adapter: `fromLangGraphSaver` in @graphc/runtime.
 *
 * A package of its own (`@graphc/langgraph`) because it imports LangGraph's `@langchain/langgraph-checkpoint`
 * (a peer LangGraph users have anyway): @graphc/runtime stays free of dependencies.
 *
 * What it adds to the graphc saver, so that LangGraph's contract (its checkpoint-validation suite) holds:
 * - values go through LangGraph's serde (`dumpsTyped`), so its classes (Send, messages, …) are stored as
 *   LangGraph stores them, as tagged text the graphc saver keeps as plain data;
 * - `put` stores only the channels named in `newVersions`, carrying the others from the parent checkpoint
 *   when their version is unchanged (LangGraph's blob-per-version layout, observable through `getTuple`);
 * - a checkpoint of format < 4 gets its parent's pending Sends as the `__pregel_tasks` channel on read.
 */
import {
  BaseCheckpointSaver,
  TASKS,
  maxChannelVersion,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointTuple,
  type PendingWrite,
  type SerializerProtocol,
} from "@langchain/langgraph-checkpoint";
import type { RunnableConfig } from "@langchain/core/runnables";
import type {
  Checkpoint as GraphcCheckpoint,
  CheckpointSaver,
  CheckpointTuple as GraphcTuple,
  RunnableConfig as GraphcConfig,
} from "@graphc/runtime";

/** a LangGraph-serialised value as plain data: the serde's type tag and its text */
interface Serialised {
  readonly $lg: string;
  readonly text: string;
}

const utf8 = new TextDecoder();
const isSerialised = (v: unknown): v is Serialised =>
  typeof v === "object" && v !== null && typeof (v as Serialised).$lg === "string" && typeof (v as Serialised).text === "string";

export class GraphcLangGraphSaver extends BaseCheckpointSaver<number> {
  constructor(
    readonly saver: CheckpointSaver,
    serde?: SerializerProtocol,
  ) {
    super(serde);
  }

  async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const t = await this.saver.getTuple(config as GraphcConfig);
    return t && this.fromGraphc(t);
  }

  async *list(config: RunnableConfig, options?: CheckpointListOptions): AsyncGenerator<CheckpointTuple> {
    for await (const t of this.saver.list(config as GraphcConfig, options as never)) yield await this.fromGraphc(t);
  }

  async put(config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata, newVersions: ChannelVersions): Promise<RunnableConfig> {
    const parent = config.configurable?.["checkpoint_id"] ? await this.saver.getTuple(config as GraphcConfig) : undefined;
    const values: Record<string, unknown> = {};
    for (const [ch, value] of Object.entries(checkpoint.channel_values)) {
      if (ch in newVersions) values[ch] = await this.dump(value);
      // unchanged since the parent: the parent's stored value (as LangGraph's savers keep one blob per version)
      else if (parent && parent.checkpoint.channel_versions[ch] === checkpoint.channel_versions[ch] && ch in parent.checkpoint.channel_values)
        values[ch] = parent.checkpoint.channel_values[ch];
    }
    const stored = { ...checkpoint, channel_values: values } as unknown as GraphcCheckpoint;
    return (await this.saver.put(config as GraphcConfig, stored, metadata as never, newVersions as Record<string, number>)) as RunnableConfig;
  }

  async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string): Promise<void> {
    const plain: [string, unknown][] = [];
    for (const [ch, value] of writes) plain.push([ch, await this.dump(value)]);
    await this.saver.putWrites(config as GraphcConfig, plain, taskId);
  }

  async deleteThread(threadId: string): Promise<void> {
    await this.saver.deleteThread(threadId);
  }

  private async dump(value: unknown): Promise<Serialised> {
    const [type, bytes] = await this.serde.dumpsTyped(value);
    return { $lg: type, text: utf8.decode(bytes) };
  }

  private async load(value: unknown): Promise<unknown> {
    return isSerialised(value) ? this.serde.loadsTyped(value.$lg, value.text) : value;
  }

  private async fromGraphc(t: GraphcTuple): Promise<CheckpointTuple> {
    const channel_values: Record<string, unknown> = {};
    for (const [ch, v] of Object.entries(t.checkpoint.channel_values)) channel_values[ch] = await this.load(v);
    const checkpoint = { ...t.checkpoint, channel_values, channel_versions: { ...t.checkpoint.channel_versions } } as unknown as Checkpoint;
    const pendingWrites: [string, string, unknown][] = [];
    for (const [task, ch, v] of t.pendingWrites ?? []) pendingWrites.push([task, ch, await this.load(v)]);
    if (checkpoint.v < 4 && t.parentConfig) await this.migrateSends(checkpoint, t.parentConfig);
    return {
      config: t.config as RunnableConfig,
      checkpoint,
      metadata: t.metadata as unknown as CheckpointMetadata,
      pendingWrites,
      ...(t.parentConfig ? { parentConfig: t.parentConfig as RunnableConfig } : {}),
    };
  }

  /** format < 4 kept Sends as the parent's pending writes; LangGraph's savers move them into the channel */
  private async migrateSends(checkpoint: Checkpoint, parentConfig: GraphcConfig): Promise<void> {
    const parent = await this.saver.getTuple(parentConfig);
    const sends: unknown[] = [];
    for (const [, ch, v] of parent?.pendingWrites ?? []) if (ch === TASKS) sends.push(await this.load(v));
    checkpoint.channel_values[TASKS] = sends;
    const versions = Object.values(checkpoint.channel_versions) as number[];
    checkpoint.channel_versions[TASKS] = versions.length > 0 ? (maxChannelVersion(...versions) as number) : this.getNextVersion(undefined);
  }
}

/** A graphc saver as a LangGraph.js BaseCheckpointSaver. */
export function asLangGraphSaver(saver: CheckpointSaver, serde?: SerializerProtocol): GraphcLangGraphSaver {
  return new GraphcLangGraphSaver(saver, serde);
}
