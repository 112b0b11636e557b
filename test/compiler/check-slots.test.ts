/**
 * Slots (`subgraph q: Iface [= Default]`) are checked against the interface, not the default graph: a
 * mapping of a field only the default has is an error, a graph named where an interface belongs is G2042,
 * and the formatter prints both forms back.
 */
import { describe, expect, it } from "vitest";
import { check } from "../../compiler/check.ts";
import { format } from "../../compiler/format/index.ts";
import { memoryHost } from "../../compiler/phases/2-bind/host.ts";

const IFACE = `
interface Answerer {
  input  { question: string }
  output { answer: string }
}
graph Wide implements Answerer {
  state { question: string, answer: string = "", extra: string = "" }
  input  { question }
  output { answer, extra }
  START -> END
}
`;

const codes = (text: string) =>
  check(["main.graph"], memoryHost({ "main.graph": text })).diagnostics.map((d) => `${d.code}@${d.span.start.line}`);

describe("slot checks", () => {
  it("check mappings against the interface's fields, not the default's", () => {
    const ok = `${IFACE}graph Desk {\n  state { question: string, answer: string = "", extra: string = "" }\n  subgraph ask: Answerer = Wide { out { answer } }\n  START -> ask -> END\n}\n`;
    expect(codes(ok)).toEqual([]);
    // `extra` is an output of the default, but not of the interface: another binding need not write it
    const extra = ok.replace("out { answer }", "out { answer, extra }");
    expect(codes(extra)).toEqual(["G5003@14"]);
  });

  it("report a graph where the interface belongs (G2042), and an unknown default (G2010)", () => {
    const graphAsIface = `${IFACE}graph Desk {\n  state { question: string, answer: string = "" }\n  subgraph ask: Wide\n  START -> ask -> END\n}\n`;
    expect(codes(graphAsIface)).toEqual(["G2042@14"]);
    const unknownDefault = `${IFACE}graph Desk {\n  state { question: string, answer: string = "" }\n  subgraph ask: Answerer = Wider\n  START -> ask -> END\n}\n`;
    expect(codes(unknownDefault)).toEqual(["G2010@14"]);
  });

  it("format both slot forms", () => {
    const text = "graph Desk {\n  state { q: string }\n  subgraph a:Answerer=Wide{timeout 5s}\n  subgraph b :  Answerer\n  START -> a -> b -> END\n}\n";
    const out = format(text, "f.graph").text;
    expect(out).toContain("subgraph a: Answerer = Wide {");
    expect(out).toContain("subgraph b: Answerer\n");
  });
});
