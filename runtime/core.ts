/**
 * @graphc/runtime/core — the loop core and everything generated code refers to (spec types, errors,
 * reducers, Command, compileGraph), without checkpointing, streaming or node policies: those are installed
 * by importing "@graphc/runtime" (or by calling the functions of "@graphc/runtime/install"), so a bundle of a
 * graph that is only invoked stays small. Using a missing part raises a `GraphValueError` naming the import.
 */
export * from "./spec.ts";
export { Command } from "./command-class.ts";
export { isCommand, isSend } from "./command.ts";
export type { CommandArgs, UpdateTuples } from "./command.ts";
export {
  GraphError,
  GraphRecursionError,
  InvalidUpdateError,
  GraphInputError,
  UpdateTypeError,
  updateTypeError,
  InvalidResumeError,
  typeOfValue,
  EmptyInputError,
  GraphValueError,
  NodeError,
  NodeTimeoutError,
  GraphAbortError,
  MultipleErrors,
  GraphBubbleUp,
  GraphInterrupt,
  ParentCommand,
  ThreadBusyError,
  lastValueConflict,
  badNodeReturn,
} from "./errors.ts";
export type { ErrorSite, Interrupt, TimeoutKind } from "./errors.ts";
// raised by every saver (missing thread_id, unserializable value, corrupt row); a plain class, so a bundle
// that never names it drops it
export { CheckpointError } from "./checkpoint/errors.ts";
// the data errors of generated specs (bad input field, a key a node or a Command given as input may not write)
export { badInput, cannotWrite } from "./spec-errors.ts";
// CORRUPT_CHECKPOINT with the thread, checkpoint and channel of damaged stored data
export { CorruptCheckpointError } from "./checkpoint/corrupt.ts";
export type { CorruptSite } from "./checkpoint/corrupt.ts";
export type { CheckpointErrorCode } from "./checkpoint/errors.ts";
export {
  Overwrite,
  isOverwrite,
  overwriteValue,
  fold,
  foldOne,
  replace,
  lastValue,
  oneSet,
  oneMaybe,
  foldSet,
  foldMaybe,
  foldAppend,
  addMessages,
  append,
  sum,
  merge,
  union,
  messages,
  RemoveMessage,
  REMOVE_ALL_MESSAGES,
} from "./reducers.ts";
export type { Message } from "./message-like.ts";
export { toMessage } from "./message-like.ts";
export { relayMessageChunks } from "./model-stream.ts";
export { compileGraph, CompiledGraph } from "./graph.ts";
export { RUNTIME_VERSION } from "./version.ts";
// the compiled graphs of the small loops (static/graph.ts), which generated code uses for lean-eligible graphs:
// the static loop's for graphs of static edges whose nodes return no Command, the lean loop's for the others
export { compileLeanGraph, LeanGraph, StaticGraph } from "./static/graph.ts";
export type {
  RunConfig,
  StreamOptions,
  CompileOptions,
  StateSnapshot,
  StateTask,
  InvokeResult,
  Configurable,
} from "./config.ts";
export type { Durability } from "./durability.ts";
export type { LevelTrace, TraceRunInfo, Tracing } from "./trace-hooks.ts";
export type { StreamMode } from "./stream.ts";
export type { AsNode, GraphInput, InterruptChunk, ModeChunks, StreamChunk, StreamHandle, StreamModes } from "./typed.ts";
export type * from "./checkpoint/types.ts";

/** `isInterrupted(result)`: the run stopped at an interrupt (LangGraph's type guard). */
export function isInterrupted<T extends object>(
  result: T | undefined,
): result is T & { __interrupt__: import("./errors.ts").Interrupt[] } {
  return typeof result === "object" && result !== null && "__interrupt__" in result;
}
export { InMemoryStore } from "./store/memory.ts";
export { StoreError } from "./store/types.ts";
export type {
  Store,
  Item,
  SearchItem,
  SearchOptions,
  ListNamespacesOptions,
  PutOptions,
  IndexConfig,
  Embedder,
  Namespace,
  StoreFilter,
  StoreErrorCode,
} from "./store/types.ts";
export { fromLangGraphSaver, type LangGraphSaverLike } from "./checkpoint/langgraph.ts";
