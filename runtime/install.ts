/**
 * Installs the optional parts of the runtime into the feature table (features.ts). Each part is installed by
 * what uses it, so that a bundle holds only what its program reaches: checkpointing by constructing one of
 * graphc's savers (checkpoint/stored-saver.ts, checkpoint/langgraph.ts), streaming, node policies and
 * Command input by importing "@graphc/runtime". A program that imports only "@graphc/runtime/core" calls the
 * functions it needs; so does one with a hand-written saver (`installCheckpointing()`).
 */
// each part is put into the table as an object literal of the hooks it implements (contracts.ts), not as
// its module namespace: a namespace object would carry every export of the module, hook or not
import { takeCommand } from "./command-input.ts";
import { commandStep } from "./static/commands.ts";
import { takeReturn } from "./writes.ts";
import {
  attachPending, beginResume, checkpointState, discardPending, flatWrites, flush, interrupt, putWritesRaw, saveCheckpoint, start,
  startChild,
} from "./durable.ts";
import { features } from "./features.ts";
import { stableUuid } from "./ids.ts";
import { CompiledGraph } from "./graph.ts";
import { startCommand } from "./small-command.ts";
import { runWithPolicy } from "./policy.ts";
import { bulkUpdateState, getState, getStateHistory, updateState } from "./state.ts";
import { stream } from "./streaming.ts";

// for the runs a lean graph hands over: a saver, tracing, policies, breakpoints (static/graph.ts)
/** the full graph that lean graphs hand some runs to */
export function installFullGraph(): void {
  features.graph ??= (spec, options, defaults) => new CompiledGraph(spec, options, defaults);
}

// the full loop's (command-input.ts: update, goto; resume with a checkpointer), the small loops'
// (small-command.ts) and a Command a static graph's node returns after all (static/commands.ts); every
// `new Command` calls it (command-class.ts), so each part is made once
/** a Command as invoke input, on every graph */
export function installCommandInput(): void {
  features.input ??= { takeCommand };
  features.smallInput ??= { startCommand };
  features.leanWrites ??= { settle: takeReturn, prepare: commandStep };
}

/** checkpointers: checkpoints, interrupts/resume, getState/getStateHistory/updateState */
export function installCheckpointing(): void {
  features.durable = {
    checkpointState, start, startChild, beginResume, discardPending, attachPending, saveCheckpoint, putWritesRaw, flatWrites, flush,
    interrupt, taskId: stableUuid,
  };
  features.state = { getState, getStateHistory, updateState, bulkUpdateState };
  installCommandInput();
  installFullGraph();
}

// a lean graph streams on its own loop, as its `invoke` runs; the runs it hands to the full graph need what
// installs that (a saver, "@graphc/runtime")
/** `stream()` with every stream mode */
export function installStreaming(): void {
  features.stream = { stream };
}

/** nodes with retry, timeout or cache policies */
export function installPolicies(): void {
  features.policy = { runWithPolicy };
  installFullGraph();
}

export function installAll(): void {
  installCheckpointing();
  installStreaming();
  installPolicies();
}
