/**
 * Every name the generated code imports from `graphc/runtime`, in one place: the emitter records which
 * ones a file uses and imports exactly those (sorted, so output is deterministic).
 */
export const RUNTIME_MODULE = "graphc/runtime";

/** runtime values generated code may call */
export const RUNTIME_VALUES = [
  "compileGraph",
  "GraphInputError",
  "InvalidUpdateError",
  "updateTypeError",
  "END",
  // reducer helpers (runtime/reducers.ts)
  "fold",
  "foldOne",
  "replace",
  "isOverwrite",
  "overwriteValue",
  "append",
  "sum",
  "merge",
  "union",
  "messages",
] as const;

/** runtime types generated code may refer to */
export const RUNTIME_TYPES = ["GraphSpec", "NodeContext", "BranchContext", "Values", "Send", "Command", "Overwrite"] as const;

export type RuntimeValue = (typeof RUNTIME_VALUES)[number];
export type RuntimeType = (typeof RUNTIME_TYPES)[number];
