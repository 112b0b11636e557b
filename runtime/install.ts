/**
 * Installs the optional parts of the runtime into the feature table (features.ts). "@graphc/runtime" calls
 * `installAll()` when it is imported; code that imports only "@graphc/runtime/core" (the small bundle) calls
 * the functions it needs. Each function is what pulls its module into a bundle.
 */
import * as durable from "./durable.ts";
import { features } from "./features.ts";
import * as policy from "./policy.ts";
import * as state from "./state.ts";
import * as streaming from "./streaming.ts";

/** checkpointers: checkpoints, interrupts/resume, getState/getStateHistory/updateState */
export function installCheckpointing(): void {
  features.durable = durable;
  features.state = state;
}

/** `stream()` with every stream mode */
export function installStreaming(): void {
  features.stream = streaming;
}

/** nodes with retry, timeout or cache policies */
export function installPolicies(): void {
  features.policy = policy;
}

export function installAll(): void {
  installCheckpointing();
  installStreaming();
  installPolicies();
}
