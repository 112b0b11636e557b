/**
 * The identifying keys of a config — `thread_id`, `checkpoint_ns`, `checkpoint_id` — and LangGraph's rule
 * for them: a string, or a finite number (read as its decimal string). Anything else is refused: `String()`
 * of an object is "[object Object]" for every object, so two users' ids would name one thread.
 * Shared by the runtime (errors name the graph) and the savers (called directly too).
 */
import { CheckpointError, missingThreadId } from "./errors.ts";

export const CONFIG_ID_KEYS = ["thread_id", "checkpoint_ns", "checkpoint_id"] as const;
export type ConfigIdKey = (typeof CONFIG_ID_KEYS)[number];

/** What was found, for the error message: "object", "array", "NaN", "Infinity", "boolean true", … */
export function describeValue(value: unknown): string {
  if (Array.isArray(value)) return "an array";
  if (typeof value === "number") return String(value);
  if (typeof value === "boolean") return `boolean ${value}`;
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}

/**
 * The key's value as a string (`undefined` when absent or null), or `fail(key, found)` when it is neither a
 * string nor a finite number.
 */
export function configId(
  configurable: Readonly<Record<string, unknown>> | undefined,
  key: ConfigIdKey,
  fail: (key: ConfigIdKey, found: string) => Error,
): string | undefined {
  const value = configurable?.[key];
  if (value === undefined || value === null || typeof value === "string") return value ?? undefined;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  throw fail(key, describeValue(value));
}

/** The message both the runtime and the savers give (the runtime prefixes the graph). */
export function invalidIdMessage(key: ConfigIdKey, found: string): string {
  return `config.configurable.${key} must be a string or a finite number, got ${found}.`;
}

/** The error a saver gives for a bad id (it does not know the graph). */
export function saverConfigError(key: ConfigIdKey, found: string): CheckpointError {
  return new CheckpointError("INVALID_CONFIG", invalidIdMessage(key, found), key);
}

/** A saver's `lockThread` argument, by the rule of `thread_id` (savers are called directly too). */
export function lockKey(threadId: unknown): string {
  const id = configId({ thread_id: threadId }, "thread_id", saverConfigError);
  if (id === undefined || id === "") throw missingThreadId("lock thread");
  return id;
}
