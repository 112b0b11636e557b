/**
 * Errors raised by checkpoint savers. `code` is stable (tests and callers match on it); the message says
 * which field or value is at fault and how to fix it.
 */
import { GraphError } from "../errors.ts";

export type CheckpointErrorCode =
  /** config.configurable.thread_id is missing (LangGraph's text) */
  | "MISSING_THREAD_ID"
  /** putWrites without config.configurable.checkpoint_id */
  | "MISSING_CHECKPOINT_ID"
  /** a value that serde cannot store exactly (function, class instance, cycle, …) */
  | "UNSERIALIZABLE_VALUE"
  /** a config field of the wrong type */
  | "INVALID_CONFIG"
  /** stored data that cannot be read back (corrupt row, missing delta base) */
  | "CORRUPT_CHECKPOINT";

export class CheckpointError extends GraphError {
  declare readonly code: CheckpointErrorCode;
  /**
   * @param field the config field or value path at fault, e.g. "thread_id" or 'channel "messages"[3].fn'
   */
  constructor(code: CheckpointErrorCode, message: string, field?: string) {
    super(message, code, field === undefined ? {} : { field });
  }
}

const THREAD_HINT =
  'When using a checkpointer, you must pass a "thread_id" so the checkpointer knows which conversation thread ' +
  'to persist state for. Example: graph.stream(input, { configurable: { thread_id: "my-thread-id" } })';

/** LangGraph's exact wording (reference §7.5), so code matching /thread_id/ or the full text keeps working. */
export function missingThreadId(operation: "put checkpoint" | "put writes" | "read checkpoint" | "lock thread"): CheckpointError {
  return new CheckpointError(
    "MISSING_THREAD_ID",
    `Failed to ${operation}. The passed RunnableConfig is missing a required "thread_id" field in its ` +
      `"configurable" property. ${THREAD_HINT}`,
    "thread_id",
  );
}
