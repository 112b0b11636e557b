/**
 * Slots in `graphc diff`: a parent's slot relies on its interface as it relies on a child graph's
 * contract, with the same variance (the parent passes the interface's input and reads its output). So an
 * incompatible change of the interface — what would be breaking for a child graph — is breaking for every
 * graph with a slot typed by it, reported on the slot's node; so is retyping a slot by another interface
 * or dropping its default (every construction must now bind it). Changing the default is dangerous (another
 * graph answers), like `subgraph-changed`.
 */
import type { Change, Subject } from "./diff-types.ts";
import type { GraphEntry, InterfaceEntry, Manifest, SlotEntry } from "./manifest-types.ts";

/** The contract comparison of diff.ts (input and output fields with their variance). */
export type ContractChanges = (a: InterfaceEntry, b: InterfaceEntry) => Change[];

const ifaceKey = (name: string, file: string) => `${file}#${name}`;

export function slotChanges(a: GraphEntry, b: GraphEntry, before: Manifest, after: Manifest, contract: ContractChanges): Change[] {
  const ifaces = (m: Manifest) => new Map((m.interfaces ?? []).map((i) => [ifaceKey(i.name, i.file), i]));
  const [old, now] = [ifaces(before), ifaces(after)];
  const was = new Map((a.slots ?? []).map((s) => [s.node, s]));
  const out: Change[] = [];
  for (const s of b.slots ?? []) {
    const at: Subject = { kind: "node", name: s.node };
    const prev = was.get(s.node);
    if (prev === undefined) continue; // a new node: nodeChanges reports it
    if (prev.interface !== s.interface || prev.source !== s.source) {
      out.push(breaking("slot-interface-replaced", `slot \`${s.node}\` is now typed by \`${s.interface}\` (${s.source}) instead of \`${prev.interface}\` (${prev.source}): graphs bound to it may not implement it`, at));
      continue;
    }
    if (prev.default !== undefined && s.default === undefined)
      out.push(breaking("slot-default-removed", `slot \`${s.node}\` lost its default \`${prev.default.graph}\` (every construction must now bind it)`, at));
    else if (s.default !== undefined && !sameDefault(prev, s))
      out.push({ level: "dangerous", kind: "slot-default-changed", message: `slot \`${s.node}\` now defaults to \`${s.default.graph}\` (${s.default.source})${prev.default ? ` instead of \`${prev.default.graph}\`` : ""}`, subject: at });
    const ia = old.get(ifaceKey(prev.interface, prev.source));
    const ib = now.get(ifaceKey(s.interface, s.source));
    if (ia === undefined || ib === undefined) continue;
    for (const c of contract(ia, ib)) {
      if (c.level !== "breaking") continue;
      out.push(breaking("slot-interface-changed", `slot \`${s.node}\`: interface \`${s.interface}\` changed incompatibly: ${c.message}`, at));
    }
  }
  return out;
}

const sameDefault = (a: SlotEntry, b: SlotEntry) => a.default?.graph === b.default?.graph && a.default?.source === b.default?.source;
const breaking = (kind: string, message: string, subject: Subject): Change => ({ level: "breaking", kind, message, subject });
