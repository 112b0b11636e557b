/**
 * Every name the generated code imports from `@graphc/runtime`, in one place: the emitter records which
 * ones a file uses and imports exactly those (sorted, so output is deterministic).
 */
export const RUNTIME_MODULE = "@graphc/runtime";
/**
 * What a file imports in lean mode (`runtime: "lean"`) when each of its graphs is lean-eligible: the same
 * names, with nothing installed (runtime/core.ts), so a bundle holds the lean loop only.
 */
export const LEAN_RUNTIME_MODULE = "@graphc/runtime/core";
/**
 * Where a file of lean-eligible graphs built with the default runtime ("full") takes what it installs: the
 * part of "@graphc/runtime" its graphs can reach that nothing else brings, `stream()` (a method: no import
 * names it) on their own small loops. A Command as input or returned after all comes with the `Command`
 * made (runtime/command-class.ts); node policies and the full loop belong to graphs that are not
 * lean-eligible (whose files import "@graphc/runtime"); checkpointing comes with a saver and tracing with
 * its tracer, as everywhere; breakpoints need "@graphc/runtime".
 */
export const INSTALL_MODULE = "@graphc/runtime/install";
export const INSTALLS = ["installStreaming"] as const;
/** what a file installs when one of its graphs has node policies (retry, timeout, cache, on_error) */
export const POLICY_INSTALL = "installPolicies";

/** The npm package that provides a module specifier: `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
export function packageOf(module: string): string {
  return module
    .split("/")
    .slice(0, module.startsWith("@") ? 2 : 1)
    .join("/");
}

/** What a user installs to get the runtime (messages name it, so they follow any change of RUNTIME_MODULE). */
export const RUNTIME_PACKAGE = packageOf(RUNTIME_MODULE);

/** runtime values generated code may call */
export const RUNTIME_VALUES = [
  "compileGraph",
  "compileLeanGraph",
  // a lean graph without routers (lean.ts compileFunction)
  "LeanGraph",
  // a graph of static edges whose nodes return no Command (lean.ts compileFunction)
  "StaticGraph",
  "GraphInputError",
  // an unbound slot (bind.ts)
  "GraphValueError",
  "InvalidUpdateError",
  "updateTypeError",
  "badInput",
  "cannotWrite",
  "END",
  // reducer helpers (runtime/reducers.ts): the fold variants, then the built-in reducers' merges (the
  // registry's `op`s, compiler/phases/reducers.ts)
  "lastValue",
  "replace",
  "oneSet",
  "oneMaybe",
  "foldSet",
  "foldMaybe",
  "foldAppend",
  "isOverwrite",
  "overwriteValue",
  "append",
  "sum",
  "merge",
  "union",
  "addMessages",
] as const;

/** runtime types generated code may refer to */
export const RUNTIME_TYPES = ["GraphSpec", "NodeContext", "BranchContext", "Values", "Send", "Command", "Overwrite", "Writes"] as const;

export type RuntimeValue = (typeof RUNTIME_VALUES)[number];
export type RuntimeType = (typeof RUNTIME_TYPES)[number];
