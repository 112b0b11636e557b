/**
 * Typed errors of the runtime. Every class carries a stable `code` and, where known, the graph, node and
 * field involved, so that a failing run names what failed. Messages that LangGraph users grep for keep
 * LangGraph's text (reference §1.5, §1.10, §7.5), including its troubleshooting URL suffix.
 */

const TROUBLESHOOTING = "https://docs.langchain.com/oss/javascript/langgraph/";

// all parts optional because some errors concern the whole graph
/** Where an error happened. */
export interface ErrorSite {
  graph?: string;
  node?: string;
  field?: string;
}

export class GraphError extends Error {
  // `declare`d and assigned in the constructor, in this order (the order of their own keys): a field
  // declaration would be emitted once more per class, in every bundle that carries the class
  declare readonly code: string;
  declare readonly graph: string | undefined;
  declare readonly node: string | undefined;
  declare readonly field: string | undefined;
  /** LangGraph's name for `code`, kept so code written against LangGraph can branch on it */
  declare readonly lc_error_code: string | undefined;

  constructor(message: string, code: string, site: ErrorSite = {}, lcCode?: string) {
    super(lcCode ? `${message}\n\nTroubleshooting URL: ${TROUBLESHOOTING}${lcCode}/\n` : message);
    this.code = code;
    this.graph = site.graph;
    this.node = site.node;
    this.field = site.field;
    this.lc_error_code = lcCode;
    this.name = new.target.name;
  }
}

export class GraphRecursionError extends GraphError {
  declare readonly limit: number;
  constructor(limit: number, site?: ErrorSite) {
    super(
      `Recursion limit of ${limit} reached without hitting a stop condition. You can increase the limit by setting the "recursionLimit" config key.`,
      "GRAPH_RECURSION_LIMIT",
      site,
      "GRAPH_RECURSION_LIMIT",
    );
    this.limit = limit;
  }
}

/** Bad writes: replace-field conflicts, bad node returns, bad Send/goto targets, unknown update keys. */
export class InvalidUpdateError extends GraphError {
  constructor(message: string, site?: ErrorSite, code = "INVALID_UPDATE", lcCode?: string) {
    super(message, code, site, lcCode);
  }
}

// reference §1.5; generated `apply` code throws this
/** LangGraph's LastValue error, its text exactly. */
export function lastValueConflict(graph: string, field: string, values: readonly unknown[]): InvalidUpdateError {
  return new InvalidUpdateError(
    `Invalid update for channel "${field}" with values ${safeJson(values)}: LastValue can only receive one value per step.`,
    { graph, field },
    "INVALID_CONCURRENT_GRAPH_UPDATE",
    "INVALID_CONCURRENT_GRAPH_UPDATE",
  );
}

/** `null`, `array` or the `typeof` of a value: how run-time type errors name what they got. */
export function typeOfValue(x: unknown): string {
  return x === null ? "null" : Array.isArray(x) ? "array" : typeof x;
}

// Generated `check` code, reached only when the value is wrong: a node's update (`node` set) or a Command
// given as input. LangGraph stores whatever it gets (`{ total: "1" }` on a `sum` field would concatenate
// to `"01"`).
/** An update value that is not of its field's declared type. */
export class UpdateTypeError extends InvalidUpdateError {
  declare readonly expected: string;
  declare readonly actual: string;
  constructor(graph: string, node: string | undefined, field: string, expected: string, value: unknown) {
    const actual = typeOfValue(value);
    const who = node === undefined ? `Command update given as input to graph "${graph}"` : `node "${node}" of graph "${graph}"`;
    super(
      `${who} wrote field "${field}" a value of type ${actual}, expected ${expected}`,
      node === undefined ? { graph, field } : { graph, node, field },
      "INVALID_UPDATE_TYPE",
    );
    this.expected = expected;
    this.actual = actual;
  }
}

// one call, so the message is built in one place
/** Throws `UpdateTypeError`: generated `check` code's failure path. */
export function updateTypeError(graph: string, node: string | undefined, field: string, expected: string, value: unknown): never {
  throw new UpdateTypeError(graph, node, field, expected, value);
}

/** A node returned something that is neither an update object, null, a Command nor a list with a Command. */
export function badNodeReturn(graph: string, node: string, value: unknown): InvalidUpdateError {
  return new InvalidUpdateError(
    `Expected node "${node}" to return an object or an array containing at least one Command object, received ${typeOfValue(value)}`,
    { graph, node },
    "INVALID_GRAPH_NODE_RETURN_VALUE",
    "INVALID_GRAPH_NODE_RETURN_VALUE",
  );
}

/** An `invoke` input (or a subgraph input) with a wrong type or an unknown key. */
export class GraphInputError extends GraphError {
  constructor(message: string, site?: ErrorSite) {
    super(message, "GRAPH_INPUT", site);
  }
}

export class EmptyInputError extends GraphError {
  constructor(message: string, site?: ErrorSite) {
    super(message, "EMPTY_INPUT", site);
  }
}

/** LangGraph's error for a run given no input (`null` or `undefined`) on a thread with nothing to resume. */
export function noInput(site: ErrorSite): EmptyInputError {
  return new EmptyInputError('Received no input writes for "__start__"', site);
}

/** A `Command.PARENT` at the root graph (LangGraph's text). */
export function noParent(site: ErrorSite): InvalidUpdateError {
  return new InvalidUpdateError("There is no parent graph.", site);
}

/** Misuse of the API: interrupt without checkpointer, getState without checkpointer, bad config. */
export class GraphValueError extends GraphError {
  constructor(message: string, site?: ErrorSite, code = "GRAPH_VALUE", lcCode?: string) {
    super(message, code, site, lcCode);
  }
}

// "reject" is LangGraph Platform's name for the strategy (docs/durability.md, "One run per thread").
/** A run, resume or updateState on a thread that another one is using, with multitask "reject". */
export class ThreadBusyError extends GraphError {
  declare readonly threadId: string;
  constructor(graph: string, threadId: string) {
    super(
      `Thread "${threadId}" is busy: another run or updateState of it is in progress (graph "${graph}", multitask "reject"). ` +
        `Try again when it has finished, or pass multitask: "enqueue" to wait for it.`,
      "THREAD_BUSY",
      { graph },
    );
    this.threadId = threadId;
  }
}

// LangGraph ignores the first (or hands the whole map to the next interrupt) and answers the second with
// defaults or the old output.
/**
 * `Command({ resume })` that cannot be delivered: a resume map naming interrupt ids that are not pending, or
 * a thread with nothing to resume.
 */
export class InvalidResumeError extends GraphValueError {
  declare readonly ids: readonly string[];
  constructor(message: string, site?: ErrorSite, ids: readonly string[] = []) {
    super(message, site, "INVALID_RESUME");
    this.ids = ids;
  }
}

export function missingCheckpointer(site?: ErrorSite): GraphValueError {
  return new GraphValueError("No checkpointer set", site, "MISSING_CHECKPOINTER", "MISSING_CHECKPOINTER");
}

/** What installs checkpointing: a saver of graphc's when constructed, else installCheckpointing(). */
export const CHECKPOINTING_FIX =
  'graphc\'s savers (MemorySaver, SqliteSaver, PostgresSaver, fromLangGraphSaver) install it when constructed; with a saver of your own, call installCheckpointing() from "@graphc/runtime/install" once';

/**
 * A run needs an optional part of the runtime that nothing installed (features.ts): `what` names the use,
 * `fix` the import or call that installs it.
 */
export function missingPart(
  what: string,
  site: ErrorSite,
  fix = 'import "@graphc/runtime" once (or call its install function from "@graphc/runtime/install")',
): GraphValueError {
  return new GraphValueError(`${what} needs a part of the runtime that is not loaded: ${fix}`, site);
}

/** The name of what `ctx.run` was given: a graph's name, a spec's, or a compiled graph's. */
export function childName(child: string | { readonly name: string } | { readonly spec: { readonly name: string } }): string {
  return typeof child === "string" ? child : "spec" in child ? child.spec.name : child.name;
}

/** `ctx.run(child)` of a node that does not declare `uses: child` (it declares `declared`, or nothing). */
export function undeclaredChild(site: { graph: string; node: string }, name: string, declared: string | undefined): GraphValueError {
  const fix = declared === undefined ? `add \`{ uses: ${name} }\` to the node` : `it declares \`uses: ${declared}\``;
  return new GraphValueError(`node "${site.node}" of graph "${site.graph}" runs graph "${name}" with ctx.run, which it does not declare: ${fix}`, site, "UNDECLARED_CHILD");
}

/** A node's own code threw: wraps the original error (`cause`) and names graph and node. */
export class NodeError extends GraphError {
  declare readonly cause: unknown;
  constructor(graph: string, node: string, cause: unknown) {
    super(`Node "${node}" of graph "${graph}" failed: ${messageOf(cause)}`, "NODE_ERROR", { graph, node });
    this.cause = cause;
  }
}

export type TimeoutKind = "run" | "idle";

export class NodeTimeoutError extends GraphError {
  declare readonly kind: TimeoutKind;
  declare readonly timeout: number;
  declare readonly elapsed: number;
  declare readonly runTimeout: number | undefined;
  declare readonly idleTimeout: number | undefined;
  constructor(
    graph: string,
    node: string,
    kind: TimeoutKind,
    timeout: number,
    elapsed: number,
    runTimeout: number | undefined,
    idleTimeout: number | undefined,
  ) {
    super(
      kind === "run"
        ? `Node "${node}" exceeded its run timeout of ${timeout}ms (elapsed: ${elapsed}ms).`
        : `Node "${node}" exceeded its idle timeout of ${timeout}ms without making progress (elapsed: ${elapsed}ms).`,
      "NODE_TIMEOUT",
      { graph, node },
    );
    this.kind = kind;
    this.timeout = timeout;
    this.elapsed = elapsed;
    this.runTimeout = runTimeout;
    this.idleTimeout = idleTimeout;
  }
}

// `bySibling` is a consequence of that failure, not a failure of its own: it is never aggregated into
// `MultipleErrors` (reference §1.3).
/**
 * The run was cancelled through its AbortSignal, or (`bySibling`) a subgraph stopped because a sibling task
 * of an enclosing step had failed.
 */
export class GraphAbortError extends GraphError {
  declare readonly bySibling: boolean;
  constructor(site?: ErrorSite, reason?: unknown, bySibling = false) {
    super(
      `Aborted${bySibling ? " (a sibling task failed)" : ""}${reason instanceof Error ? `: ${reason.message}` : ""}`,
      "ABORTED",
      site,
    );
    this.name = "AbortError";
    this.bySibling = bySibling;
  }
}

/** Several tasks of one superstep failed (LangGraph's AggregateError text). */
export class MultipleErrors extends GraphError {
  declare readonly errors: unknown[];
  constructor(graph: string, step: number, errors: unknown[]) {
    super(
      `Multiple errors occurred during superstep ${step}. See the "errors" field of this exception for more details.`,
      "MULTIPLE_ERRORS",
      { graph },
    );
    this.errors = errors;
  }
}

export interface Interrupt {
  /** stable per task namespace: the same id at every nesting level; absent for static breakpoints */
  id?: string;
  value?: unknown;
}

/** Errors that travel upward through the loop instead of failing the run. */
export class GraphBubbleUp extends GraphError {}

export class GraphInterrupt extends GraphBubbleUp {
  declare readonly interrupts: Interrupt[];
  constructor(interrupts: Interrupt[], site?: ErrorSite) {
    super(safeJson(interrupts), "GRAPH_INTERRUPT", site);
    this.interrupts = interrupts;
  }
}

/** A `Command` with `graph: Command.PARENT`, travelling to the task that runs the subgraph. */
export class ParentCommand extends GraphBubbleUp {
  readonly command: unknown;
  // set by the subgraph call that the command leaves; the parent task with this owner handles it
  owner: unknown;
  constructor(command: unknown, site?: ErrorSite) {
    super("Command to the parent graph", "PARENT_COMMAND", site);
    this.command = command;
  }
}

export function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}
