/**
 * The errors generated specs throw for bad data, as runtime functions: generated code calls them with the
 * graph's name instead of declaring one helper per graph, so their text lives once, here.
 */
import { GraphInputError, InvalidUpdateError, typeOfValue } from "./errors.ts";
import type { Values } from "./spec.ts";

/** An `invoke` input as an object of fields; anything else (null, an array, a primitive) is a `GraphInputError`. */
export function inputObject(graph: string, raw: unknown): Values {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw))
    throw new GraphInputError(`graph "${graph}" expects an object as input, got ${typeOfValue(raw)}`, { graph });
  return raw as Values;
}

/** An `invoke` input key that is not an input field of the graph (`inputs`: the list of them, or "none"). */
export function unknownInput(graph: string, k: string, inputs: string): never {
  throw new GraphInputError(`graph "${graph}" has no input field ${JSON.stringify(k)} (input fields: ${inputs})`, { graph, field: k });
}

/** A required input field (declared input, no default, a type without undefined) that the input lacks. */
export function missingInput(graph: string, field: string, type: string): never {
  throw new GraphInputError(`graph "${graph}": required input field "${field}" (${type}) is missing`, { graph, field });
}

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
