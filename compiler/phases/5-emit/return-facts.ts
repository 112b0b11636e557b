/**
 * What the TypeScript pass proves of a node function's return type beside `sync`: that it returns no
 * `Command` (`noCommand`), so that its graph may run on the runtime's static loop (runtime/static/, which
 * reads a return as an update and nothing else; compiler/phases/4-lower/lean.ts `staticEligible`). One rule
 * for both TypeScript passes (ts-check.ts over the JavaScript compiler, ts-native.ts over TypeScript 7), each
 * giving its view of a type. "Cannot tell" is always "may return a Command".
 */

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
