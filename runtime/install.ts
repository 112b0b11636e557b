/**
 * Installs the optional parts of the runtime into the feature table (features.ts). Each part is installed by
 * what uses it, so that a bundle holds only what its program reaches: checkpointing by constructing one of
 * graphc's savers (checkpoint/stored-saver.ts, checkpoint/langgraph.ts), streaming, node policies and
 * Command input by importing "@graphc/runtime". A program that imports only "@graphc/runtime/core" calls the
 * functions it needs; so does one with a hand-written saver (`installCheckpointing()`).
 */
import * as commandInput from "./command-input.ts";
import * as durable from "./durable.ts";
import { features } from "./features.ts";
import { CompiledGraph } from "./graph.ts";
import * as policy from "./policy.ts";
import * as state from "./state.ts";
import * as streaming from "./streaming.ts";

/**
 * The full compiled graph, for the runs a lean graph (lean/graph.ts) hands over: every part installs it, so
 * a lean graph streams once streaming is installed, and runs with a saver once a saver is constructed.
 */
function installFullGraph(): void {
  features.graph ??= (spec, options, defaults) => new CompiledGraph(spec, options, defaults);
}

/** a Command as invoke input (update, goto; resume with a checkpointer) */
export function installCommandInput(): void {
  features.input = commandInput;
  installFullGraph();
}

/** checkpointers: checkpoints, interrupts/resume, getState/getStateHistory/updateState */
export function installCheckpointing(): void {
  features.durable = durable;
  features.state = state;
  installCommandInput();
}

/** `stream()` with every stream mode */
export function installStreaming(): void {
  features.stream = streaming;
  installFullGraph();
}

/** nodes with retry, timeout or cache policies */
export function installPolicies(): void {
  features.policy = policy;
  installFullGraph();
}

export function installAll(): void {
  installCheckpointing();
  installStreaming();
  installPolicies();
}
