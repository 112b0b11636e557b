/**
 * The facts lowering cannot know by itself: whether an imported function is synchronous (never returns a
 * Promise) and whether a node function never returns a Command. TypeScript answers them after seeing a draft
 * of the generated code (the user's modules usually import their types from it), so this is the pipeline's
 * step after the TypeScript pass: check → lower → emit draft → TypeScript → `withSync` → emit final. It
 * records the answers in the IR (the emitter only reads the IR) and changes nothing else.
 */
import type { ImportRef } from "../2-bind/model.ts";
import type { BranchIR, EdgesIR, FnRefIR, GraphIR, NodeIR, ProgramIR } from "./ir.ts";

/** What the TypeScript pass answers of an imported function; "cannot tell" is false for both. */
export interface ReturnFacts {
  /** never returns a Promise: the emitter skips the `await` */
  readonly sync: boolean;
  /** never returns a Command (compiler/phases/5-emit/return-facts.ts) */
  readonly noCommand: boolean;
  /**
   * the fields a node function's updates may carry, sorted, when `noCommand` and its type tells
   * (return-facts.ts `returnedFields`): one the node does not declare is G3097 (compile.ts)
   */
  readonly fields?: readonly string[] | undefined;
}

export const UNKNOWN_RETURN: ReturnFacts = { sync: false, noCommand: false };

/** Answers the return facts of an imported function. */
export type ReturnOracle = (fn: ImportRef, fromFile: string) => ReturnFacts;

/**
 * The IR with `sync` set on every function a node or a branch calls, and `noCommand` and `fields` on every
 * node function (lowering leaves them all `false`, `fields` absent).
 */
export function withSync(program: ProgramIR, returns: ReturnOracle): ProgramIR {
  return { files: program.files.map((f) => ({ ...f, graphs: f.graphs.map((g) => graphWithSync(g, returns)) })) };
}

function graphWithSync(g: GraphIR, returns: ReturnOracle): GraphIR {
  const fn = (ref: FnRefIR): FnRefIR => ({ ...ref, sync: returns(ref, g.file).sync });
  const nodeFn = (ref: FnRefIR): FnRefIR => {
    const facts = returns(ref, g.file);
    return { ...ref, sync: facts.sync, noCommand: facts.noCommand, fields: facts.fields };
  };
  const branches = (e: EdgesIR): BranchIR[] => e.branches.map((b) => (b.kind === "conditions" ? b : { ...b, fn: fn(b.fn) }));
  const node = (n: NodeIR): NodeIR => (n.kind === "function" ? { ...n, fn: nodeFn(n.fn), branches: branches(n) } : { ...n, branches: branches(n) });
  return { ...g, nodes: g.nodes.map(node), start: { ...g.start, branches: branches(g.start) } };
}
