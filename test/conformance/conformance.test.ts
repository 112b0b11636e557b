/**
 * Runtime conformance: the cases of reference §8 (langgraph-semantics.md) written as `.graph` programs
 * (test/conformance/graphs), compiled by graphc in one batch and run on graphc's runtime. Groups A–E, G and
 * the §8.3 micro-cases run without a checkpointer; groups F–H (and the checkpointer halves of earlier
 * cases) run against MemorySaver, SqliteSaver and PostgresSaver. Case by case status: docs/conformance.md.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LeanGraph, StaticGraph, type CheckpointSaver } from "@graphc/runtime";
import { buildPrograms, module, staticShape, useLoop } from "./context.ts";
import { openSaver, SAVER_KINDS, type SaverUnderTest } from "./savers.ts";
import { channels } from "./cases/a-channels.ts";
import { schemas } from "./cases/b-schemas.ts";
import { edges } from "./cases/c-edges.ts";
import { sends } from "./cases/d-send.ts";
import { commands } from "./cases/e-command.ts";
import { subgraphs } from "./cases/g-subgraphs.ts";
import { micro } from "./cases/micro.ts";
import { parity } from "./cases/p-parity.ts";
import { durable } from "./cases/f-durable.ts";
import { nested } from "./cases/g-nested.ts";
import { limits } from "./cases/h-limits.ts";
import { ported } from "./cases/lg-ported.ts";

beforeAll(async () => {
  await buildPrograms();
});

/** the groups that run without a checkpointer */
function withoutCheckpointer(): void {
  channels();
  schemas();
  edges();
  sends();
  commands();
  subgraphs();
  micro();
  parity();
}

describe("without a checkpointer", withoutCheckpointer);

const GROUPS = ["a-channels", "b-schemas", "c-edges", "d-send", "e-command", "m-micro", "p-parity"];

// every case above again, with the lean-eligible graphs (whose invoke ran the lean or the static loop) on the
// full loop: every loop must give what the cases expect
describe("without a checkpointer, lean-eligible graphs on the full loop", () => {
  beforeAll(() => useLoop("full"));
  afterAll(() => useLoop("generated"));
  it("the programs hold lean-eligible graphs of every group", () => {
    const lean = GROUPS.filter((f) => Object.values(module(f)).some((x) => x instanceof StaticGraph));
    expect(lean).toEqual(GROUPS);
  });
  withoutCheckpointer();
});

// and once more with the lean-eligible graphs of static edges whose nodes declare no goto on the static loop
describe("without a checkpointer, graphs of static edges on the static loop", () => {
  beforeAll(() => useLoop("static"));
  afterAll(() => useLoop("generated"));
  it("the programs hold graphs of static edges and lean graphs with routers or goto", () => {
    const kinds = (f: string) =>
      // a LeanGraph is a StaticGraph too (it extends it): asked first
      Object.values(module(f)).map((x) =>
        x instanceof LeanGraph ? (staticShape(x.spec) ? "static" : "lean") : x instanceof StaticGraph ? "static" : "other",
      );
    expect(GROUPS.filter((f) => kinds(f).includes("static"))).toEqual(["a-channels", "b-schemas", "c-edges", "e-command", "m-micro", "p-parity"]);
    expect(GROUPS.filter((f) => kinds(f).includes("lean"))).toEqual(["c-edges", "d-send", "e-command", "m-micro", "p-parity"]);
  });
  withoutCheckpointer();
});

describe.each(SAVER_KINDS)("with %s saver", (kind) => {
  let under: SaverUnderTest | undefined;
  const saver = (): CheckpointSaver => {
    if (!under) throw new Error(`${kind} saver is not open`);
    return under.saver;
  };
  beforeAll(async () => {
    under = await openSaver(kind);
  });
  afterAll(async () => {
    await under?.close();
  });
  durable(saver);
  nested(saver);
  limits(saver);
  ported(saver);
});
