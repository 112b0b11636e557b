/**
 * The samples' pictures: every graph of every sample renders to an SVG (offline, @viz-js/viz) that holds
 * each node of its drawing, the committed samples/<sample>/<Graph>.svg files are exactly what the renderer
 * draws today (`npx tsx scripts/sample-pictures.ts` rewrites them), and each sample's README shows them.
 */
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { samplePictures, type Picture } from "../../scripts/sample-pictures.ts";
import { ROOT } from "../graph-files.ts";

let pictures: Picture[];
beforeAll(async () => {
  pictures = await samplePictures();
}, 60_000);

describe("sample pictures", () => {
  it("draw every non-inline graph of the samples, the customer-service subgraphs as clusters", () => {
    const names = pictures.map((p) => p.path);
    expect(names).toContain("samples/customer-service/CustomerService.svg");
    expect(names).toContain("samples/chatdev/SubGraphPath.svg");
    expect(names.length).toBeGreaterThanOrEqual(16);
    const cs = pictures.find((p) => p.graph === "CustomerService")!.svg;
    for (const c of ["reception", "query", "decide", "execution"]) expect(cs).toContain(`<title>cluster_${c}</title>`);
    // clusters are labelled as the subgraphs are declared: `node = Graph`, `node = graph` when inline
    expect(cs).toContain(">reception = Reception</text>");
    expect(pictures.find((p) => p.graph === "SubGraphInline")!.svg).toContain(">paper_critique = graph</text>");
    for (const n of ["new_turn", "reception:classify", "execution:approve", "human_handoff"]) expect(cs).toContain(`<title>${n}</title>`);
  });

  it("are well-formed SVG documents holding a node for every graph node", () => {
    for (const p of pictures) {
      expect(p.svg, p.path).toMatch(/^<\?xml [^]*<svg [^]*<\/svg>\n$/);
      // every element that opens is closed: a cheap well-formedness check without an XML parser
      const opened = p.svg.match(/<(g|text|title|svg|a)[\s>]/g)?.length ?? 0;
      const closed = p.svg.match(/<\/(g|text|title|svg|a)>/g)?.length ?? 0;
      expect(closed, p.path).toBe(opened);
      expect(p.nodes.length, p.path).toBeGreaterThan(2);
      for (const id of p.nodes) expect(p.svg, `${p.path}: node ${id}`).toContain(`<title>${id}</title>`);
    }
    const loop = pictures.find((p) => p.graph === "LoopCounter")!.svg;
    for (const n of ["__start__", "writer", "critic", "loop_gate", "finalizer", "__end__"]) expect(loop).toContain(`<title>${n}</title>`);
    // the waiting edge [romanticism, realism, magical_realism] -> editor meets at one join bar
    const discuss = pictures.find((p) => p.graph === "ArticleDiscuss")!.svg;
    expect(discuss).toContain("<title>__join0</title>");
    expect(discuss).toContain("waits for romanticism, realism, magical_realism");
  });

  it("are committed and current (npx tsx scripts/sample-pictures.ts rewrites them)", () => {
    for (const p of pictures) {
      let committed: string | undefined;
      try {
        committed = readFileSync(join(ROOT, p.path), "utf8");
      } catch {
        committed = undefined;
      }
      expect(committed === p.svg, `${p.path} is missing or stale: run npx tsx scripts/sample-pictures.ts`).toBe(true);
    }
    // no picture of a graph that no longer exists
    const expected = new Set(pictures.map((p) => p.path));
    for (const dir of new Set(pictures.map((p) => dirname(p.path)))) {
      for (const f of readdirSync(join(ROOT, dir)).filter((f) => f.endsWith(".svg"))) expect(expected).toContain(`${dir}/${f}`);
    }
  });

  it("are shown by the samples' READMEs", () => {
    for (const p of pictures) {
      const readme = readFileSync(join(ROOT, dirname(p.path), "README.md"), "utf8");
      expect(readme, `${dirname(p.path)}/README.md`).toContain(`(${p.path.split("/").pop()})`);
    }
  });
});
