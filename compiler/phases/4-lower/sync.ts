/**
 * The one fact lowering cannot know by itself: whether an imported function is synchronous (never returns a
 * Promise). TypeScript answers it after seeing a draft of the generated code (the user's modules usually
 * import their types from it), so this is the pipeline's step after the TypeScript pass:
 * check → lower → emit draft → TypeScript → `withSync` → emit final. It records the answers in the IR (the
 * emitter only reads the IR) and changes nothing else.
 */
import type { ImportRef } from "../2-bind/model.ts";
import type { BranchIR, EdgesIR, FnRefIR, GraphIR, NodeIR, ProgramIR } from "./ir.ts";

/** Decides whether an imported function is synchronous (never returns a Promise). */
export type SyncOracle = (fn: ImportRef, fromFile: string) => boolean;

/** The IR with `sync` set on every function a node or a branch calls (lowering leaves them all `false`). */
export function withSync(program: ProgramIR, isSync: SyncOracle): ProgramIR {
  return { files: program.files.map((f) => ({ ...f, graphs: f.graphs.map((g) => graphWithSync(g, isSync)) })) };
}

function graphWithSync(g: GraphIR, isSync: SyncOracle): GraphIR {
  const fn = (ref: FnRefIR): FnRefIR => ({ ...ref, sync: isSync(ref, g.file) });
  const branches = (e: EdgesIR): BranchIR[] => e.branches.map((b) => (b.kind === "conditions" ? b : { ...b, fn: fn(b.fn) }));
  const node = (n: NodeIR): NodeIR => (n.kind === "function" ? { ...n, fn: fn(n.fn), branches: branches(n) } : { ...n, branches: branches(n) });
  return { ...g, nodes: g.nodes.map(node), start: { ...g.start, branches: branches(g.start) } };
}
