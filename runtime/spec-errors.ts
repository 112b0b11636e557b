/**
 * The errors generated specs throw for bad data, as runtime functions: generated code calls them with the
 * graph's name instead of declaring one helper per graph, so their text lives once, here.
 */
import { GraphInputError, InvalidUpdateError } from "./errors.ts";

/** An `invoke` input field whose value is not of the field's type. */
export function badInput(graph: string, field: string, want: string, x: unknown): never {
  throw new GraphInputError(`graph "${graph}": input field "${field}" must be ${want}, got ${x === null ? "null" : typeof x}`, {
    graph,
    field,
  });
}

/**
 * A node returned key `k`, which it may not write (LangGraph would drop it silently); `why` says what it may.
 * Node `undefined` (as for `updateTypeError`): the update of a Command given as input names a key that is no
 * field of the graph (generated `checkUpdate`, which may share a node's check).
 */
export function cannotWrite(graph: string, node: string | undefined, k: string, why: string): never {
  if (node === undefined)
    throw new InvalidUpdateError(`Command update given as input to graph "${graph}" names unknown field ${JSON.stringify(k)}`, { graph, field: k });
  throw new InvalidUpdateError(`node "${node}" of graph "${graph}" cannot write ${JSON.stringify(k)}${why}`, { graph, node, field: k });
}
