/**
 * What the TypeScript pass proves of a node function's return type beside `sync`: that it returns no
 * `Command` (`noCommand`), so that its graph may run on the runtime's static loop (runtime/static/, which
 * reads a return as an update and nothing else; compiler/phases/4-lower/lean.ts `staticEligible`), and which
 * fields its updates may carry (`returnedFields`: a field the node does not declare is G3097). One rule for
 * both TypeScript passes (ts-check.ts over the JavaScript compiler, ts-native.ts over TypeScript 7), each
 * giving its view of a type. "Cannot tell" is always "may return a Command" and "may return any field".
 */

import type { ReturnFacts } from "../4-lower/index.ts";

/**
 * The facts of a function from the return types of its call signatures (each pass's view of them, and
 * whether a type is a plain value, never a Promise or thenable).
 */
export function factsOf<T>(returned: readonly T[], view: TypeView<T>, plain: (t: T) => boolean): ReturnFacts {
  const noCommand = returned.every((t) => returnsNoCommand(t, view));
  let fields: Set<string> | undefined = noCommand ? new Set() : undefined;
  for (const t of returned) if (fields !== undefined) fields = returnedFields(t, view, fields);
  return { sync: returned.every(plain), noCommand, fields: fields && [...fields].sort() };
}

/** The parts of a type the rule reads, as each TypeScript API gives them. */
export interface TypeView<T> {
  /** `any`, `unknown` or `never` (a cast such as `as never` hides what is returned) */
  opaque(t: T): boolean;
  /** the members of a union, else undefined */
  members(t: T): readonly T[] | undefined;
  /** a primitive, literal, `void`, `undefined` or `null`: never a Command */
  primitive(t: T): boolean;
  /** the names of the type's properties (an intersection's too) */
  propertyNames(t: T): readonly string[];
  /** the type has an index signature (`Record<string, …>`, arrays) */
  indexed(t: T): boolean;
  /** `X` of `Promise<X>`; undefined for any other type */
  promised(t: T): T | undefined;
}

/** The properties of a `Command` (runtime/command.ts): a type with one of them could describe one. */
const COMMAND_KEYS = new Set(["lg_name", "update", "goto", "graph", "resume"]);

/**
 * Whether no value of type `t` can be a Command or hold one for the loop to read: a primitive, or an object
 * type with properties of its own, none of them a Command's, no index signature and no `length` (arrays and
 * tuples may hold Commands, which a node's return may list); a union when every member is; `Promise<X>` when
 * `X` is. Anything else (`any`, `object`, `{}`, thenables other than Promise) cannot be told.
 */
export function returnsNoCommand<T>(t: T, view: TypeView<T>, depth = 0): boolean {
  if (depth > 8 || view.opaque(t)) return false;
  const members = view.members(t);
  if (members !== undefined) return members.every((m) => returnsNoCommand(m, view, depth + 1));
  if (view.primitive(t)) return true;
  const promised = view.promised(t);
  if (promised !== undefined) return returnsNoCommand(promised, view, depth + 1);
  const names = view.propertyNames(t);
  if (names.length === 0 || view.indexed(t)) return false;
  return names.every((n) => !COMMAND_KEYS.has(n) && n !== "length" && n !== "then");
}

/**
 * The names of the fields an update of type `t` may carry: the properties of every object member of a union
 * (`Promise<X>`: X's), primitives, `void` and `undefined` adding none; undefined when that cannot be told
 * (`any`, an index signature, `{}` or `object`). Called for types `returnsNoCommand` accepted, so that no
 * member is a Command or a list.
 */
export function returnedFields<T>(t: T, view: TypeView<T>, into: Set<string> = new Set(), depth = 0): Set<string> | undefined {
  if (depth > 8 || view.opaque(t)) return undefined;
  const members = view.members(t);
  if (members !== undefined) {
    for (const m of members) if (returnedFields(m, view, into, depth + 1) === undefined) return undefined;
    return into;
  }
  if (view.primitive(t)) return into;
  const promised = view.promised(t);
  if (promised !== undefined) return returnedFields(promised, view, into, depth + 1);
  const names = view.propertyNames(t);
  if (names.length === 0 || view.indexed(t)) return undefined;
  for (const n of names) into.add(n);
  return into;
}
