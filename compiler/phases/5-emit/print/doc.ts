/**
 * A document printer with prettier's semantics (groups that break when their content up to the next
 * possible line break does not fit, conditional groups tried in order, line suffixes flushed at the next
 * line break, breaks propagated to enclosing groups), written for the printer in this folder: the shapes
 * it builds must lay out exactly as prettier lays out the same document, or the statement is refused.
 *
 * `refuse` marks a layout this printer does not build (a member chain broken over lines, say): choosing
 * it in break mode throws Refused, and the caller hands the statement to prettier.
 */
export type Doc = string | Doc[] | Group | Indent | Line | IfBreak | LineSuffix | BreakParent | Refuse | Fail;

export interface Group {
  readonly kind: "group";
  contents: Doc;
  brk: boolean;
  readonly states?: Doc[];
  readonly id?: symbol;
}
interface Indent {
  readonly kind: "indent";
  readonly contents: Doc;
  readonly align?: number;
  /** indent only when the group `ifOf` broke (prettier's indentIfBreak) */
  readonly ifOf?: symbol;
}
interface Line {
  readonly kind: "line";
  readonly hard: boolean;
  readonly soft: boolean;
}
interface IfBreak {
  readonly kind: "if-break";
  readonly broken: Doc;
  readonly flat: Doc;
  readonly of?: symbol;
}
interface LineSuffix {
  readonly kind: "line-suffix";
  readonly contents: Doc;
}
interface BreakParent {
  readonly kind: "break-parent";
}
interface Refuse {
  readonly kind: "refuse";
  readonly contents: Doc;
}

/** a layout this printer does not build, printed in any mode */
interface Fail {
  readonly kind: "fail";
}
export const FAIL: Doc = { kind: "fail" };

export class Refused extends Error {}

export const line: Doc = { kind: "line", hard: false, soft: false };
export const softline: Doc = { kind: "line", hard: false, soft: true };
const hardlineOnly: Doc = { kind: "line", hard: true, soft: false };
export const breakParent: Doc = { kind: "break-parent" };
export const hardline: Doc = [hardlineOnly, breakParent];

export function group(contents: Doc, brk = false, id?: symbol): Group {
  return { kind: "group", contents, brk, ...(id ? { id } : {}) };
}
export function conditionalGroup(states: Doc[], brk = false): Group {
  return { kind: "group", contents: states[0]!, brk, states };
}
export function indent(contents: Doc): Doc {
  return { kind: "indent", contents };
}
export function align(n: number, contents: Doc): Doc {
  return { kind: "indent", contents, align: n };
}
export function indentIfBreak(contents: Doc, of: symbol): Doc {
  return { kind: "indent", contents, ifOf: of };
}
export function ifBreak(broken: Doc, flat: Doc = "", of?: symbol): Doc {
  return { kind: "if-break", broken, flat, ...(of ? { of } : {}) };
}
export function lineSuffix(contents: Doc): Doc {
  return { kind: "line-suffix", contents };
}
/** contents that must print flat: in break mode the statement is refused */
export function refuse(contents: Doc): Doc {
  return { kind: "refuse", contents };
}
export function join(sep: Doc, docs: readonly Doc[]): Doc[] {
  const out: Doc[] = [];
  docs.forEach((d, i) => {
    if (i > 0) out.push(sep);
    out.push(d);
  });
  return out;
}

/** Does the document hold a forced break (prettier's willBreak)? */
export function willBreak(doc: Doc): boolean {
  if (typeof doc === "string") return false;
  if (Array.isArray(doc)) return doc.some(willBreak);
  switch (doc.kind) {
    case "group":
      return doc.brk || willBreak(doc.contents);
    case "line":
      return doc.hard;
    case "break-parent":
      return true;
    case "if-break":
      return willBreak(doc.broken) || willBreak(doc.flat);
    case "fail":
      return false;
    default:
      return willBreak(doc.contents);
  }
}

/** Marks every group that holds a break-parent as broken; true if `doc` holds one. */
function propagate(doc: Doc): boolean {
  if (typeof doc === "string") return false;
  if (Array.isArray(doc)) {
    let any = false;
    for (const d of doc) if (propagate(d)) any = true;
    return any;
  }
  switch (doc.kind) {
    case "group": {
      const inner = propagate(doc.contents);
      // a conditional group is not broken by what it holds (prettier leaves that to its caller)
      if (doc.states) for (const s of doc.states.slice(1)) propagate(s);
      else if (inner) doc.brk = true;
      return doc.brk;
    }
    case "break-parent":
      return true;
    case "line":
    case "fail":
      return false;
    case "if-break":
      return propagate(doc.broken) || propagate(doc.flat);
    default:
      return propagate(doc.contents);
  }
}

const BREAK = 1;
const FLAT = 2;
type Mode = typeof BREAK | typeof FLAT;
interface Cmd {
  readonly ind: string;
  readonly mode: Mode;
  readonly doc: Doc;
}

/**
 * A text's width in columns, where it is plainly one column a character: Latin (below U+0300) and general
 * punctuation such as `…`. Control characters (a tab, a line break in a template), combining marks, wide
 * and emoji characters, which prettier measures by its own tables, are refused.
 */
function width(s: string): number {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f) continue;
    if ((c >= 0xa0 && c < 0x300) || (c >= 0x2010 && c <= 0x2027) || (c >= 0x2030 && c <= 0x205e)) continue;
    throw new Refused("a character prettier measures by its tables");
  }
  return s.length;
}

function fits(next: Cmd, rest: readonly Cmd[], room: number, hasSuffix: boolean, modes: Map<symbol, Mode>): boolean {
  let restIdx = rest.length;
  const cmds: { mode: Mode; doc: Doc }[] = [next];
  while (room >= 0) {
    if (cmds.length === 0) {
      if (restIdx === 0) return true;
      cmds.push(rest[--restIdx]!);
      continue;
    }
    const { mode, doc } = cmds.pop()!;
    if (typeof doc === "string") {
      room -= width(doc);
      continue;
    }
    if (Array.isArray(doc)) {
      for (let i = doc.length - 1; i >= 0; i--) cmds.push({ mode, doc: doc[i]! });
      continue;
    }
    switch (doc.kind) {
      case "indent":
      case "refuse":
        cmds.push({ mode, doc: doc.contents });
        break;
      case "group": {
        const m = doc.brk ? BREAK : mode;
        cmds.push({ mode: m, doc: doc.states && m === BREAK ? doc.states.at(-1)! : doc.contents });
        break;
      }
      case "if-break": {
        const m = doc.of ? (modes.get(doc.of) ?? FLAT) : mode;
        cmds.push({ mode, doc: m === BREAK ? doc.broken : doc.flat });
        break;
      }
      case "line":
        if (mode === BREAK || doc.hard) return true;
        if (!doc.soft) room--;
        break;
      case "line-suffix":
        hasSuffix = true;
        break;
      case "break-parent":
      case "fail":
        break;
    }
  }
  return false;
}

export function printDoc(doc: Doc, printWidth: number): string {
  propagate(doc);
  const modes = new Map<symbol, Mode>();
  const out: string[] = [];
  let pos = 0;
  let suffixes: Cmd[] = [];
  let remeasure = false;
  const cmds: Cmd[] = [{ ind: "", mode: BREAK, doc }];
  for (;;) {
    if (cmds.length === 0) {
      if (suffixes.length === 0) break;
      for (let i = suffixes.length - 1; i >= 0; i--) cmds.push(suffixes[i]!);
      suffixes = [];
    }
    const { ind, mode, doc } = cmds.pop()!;
    if (typeof doc === "string") {
      out.push(doc);
      pos += width(doc);
      continue;
    }
    if (Array.isArray(doc)) {
      for (let i = doc.length - 1; i >= 0; i--) cmds.push({ ind, mode, doc: doc[i]! });
      continue;
    }
    switch (doc.kind) {
      case "indent": {
        const more = doc.ifOf ? (modes.get(doc.ifOf) === BREAK ? "  " : "") : doc.align !== undefined ? " ".repeat(doc.align) : "  ";
        cmds.push({ ind: ind + more, mode, doc: doc.contents });
        break;
      }
      case "refuse":
        if (mode === BREAK) throw new Refused("a layout this printer does not build");
        cmds.push({ ind, mode, doc: doc.contents });
        break;
      case "group": {
        if (mode === FLAT && !remeasure) {
          cmds.push({ ind, mode: doc.brk ? BREAK : FLAT, doc: doc.contents });
        } else {
          remeasure = false;
          const next: Cmd = { ind, mode: FLAT, doc: doc.contents };
          const room = printWidth - pos;
          const hasSuffix = suffixes.length > 0;
          if (!doc.brk && fits(next, cmds, room, hasSuffix, modes)) cmds.push(next);
          else if (doc.states) {
            const most = doc.states.at(-1)!;
            if (doc.brk) cmds.push({ ind, mode: BREAK, doc: most });
            else {
              for (let i = 1; i < doc.states.length + 1; i++) {
                if (i >= doc.states.length) {
                  cmds.push({ ind, mode: BREAK, doc: most });
                  break;
                }
                const cmd: Cmd = { ind, mode: FLAT, doc: doc.states[i]! };
                if (fits(cmd, cmds, room, hasSuffix, modes)) {
                  cmds.push(cmd);
                  break;
                }
              }
            }
          } else cmds.push({ ind, mode: BREAK, doc: doc.contents });
        }
        if (doc.id) modes.set(doc.id, cmds.at(-1)!.mode);
        break;
      }
      case "if-break": {
        const m = doc.of ? modes.get(doc.of) : mode;
        if (m === BREAK) cmds.push({ ind, mode, doc: doc.broken });
        else if (m === FLAT) cmds.push({ ind, mode, doc: doc.flat });
        break;
      }
      case "line-suffix":
        suffixes.push({ ind, mode, doc: doc.contents });
        break;
      case "break-parent":
        break;
      case "fail":
        throw new Refused("a layout this printer does not build");
      case "line":
        if (mode === FLAT && !doc.hard) {
          if (!doc.soft) {
            out.push(" ");
            pos++;
          }
          break;
        }
        if (mode === FLAT) remeasure = true;
        if (suffixes.length > 0) {
          cmds.push({ ind, mode, doc });
          for (let i = suffixes.length - 1; i >= 0; i--) cmds.push(suffixes[i]!);
          suffixes = [];
          break;
        }
        trimEnd(out);
        out.push("\n" + ind);
        pos = ind.length;
        break;
    }
  }
  return out.join("");
}

/** prettier's trim before a line break: the spaces and tabs that end the output */
function trimEnd(out: string[]): void {
  while (out.length > 0) {
    const last = out[out.length - 1]!;
    const t = last.replace(/[ \t]+$/, "");
    if (t.length > 0) {
      out[out.length - 1] = t;
      return;
    }
    out.pop();
  }
}
