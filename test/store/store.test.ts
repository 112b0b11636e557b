/**
 * The long-term Store (issue 13 §3): the conformance suite on InMemoryStore, SqliteStore and PostgresStore,
 * and `ctx.store` from nodes and subgraphs, shared across threads.
 */
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { InMemoryStore, MemorySaver, compileGraph, type NodeContext, type Store, type Values } from "@graphc/runtime";
import { PostgresStore } from "@graphc/checkpoint-postgres";
import { SqliteStore } from "@graphc/checkpoint-sqlite";
import { graph, nodeFactory } from "../runtime/helpers.ts";
import { postgresUrl } from "../savers/pg-env.ts";
import { tempDir } from "../temp-dir.ts";
import { storeConformance } from "./conformance.ts";

const tmp = tempDir("store");
const url = postgresUrl();
const runTag = `graphc_store_${process.pid}_${Date.now().toString(36)}`;
const admin = new pg.Pool({ connectionString: url, max: 1 });
let schemas = 0;
afterAll(async () => {
  for (let i = 1; i <= schemas; i++) await admin.query(`DROP SCHEMA IF EXISTS "${runTag}_${i}" CASCADE`);
  await admin.end();
  tmp.remove();
});

storeConformance("InMemoryStore", async (index) => ({ store: new InMemoryStore(index ? { index } : {}), close: async () => {} }));
let files = 0;
storeConformance("SqliteStore", async (index) => {
  const s = new SqliteStore(join(tmp.dir, `s${++files}.db`), index ? { index } : {});
  return { store: s, close: async () => s.close() };
});
storeConformance("PostgresStore", async (index) => {
  const schema = `${runTag}_${++schemas}`;
  const s = new PostgresStore(new pg.Pool({ connectionString: url, max: 2 }), { schema, ...(index ? { index } : {}) }, true);
  return { store: s, close: () => s.end() };
});

describe("ctx.store in a graph", () => {
  const n = nodeFactory("Memory", ["user", "seen"]);
  const cn = nodeFactory("Child", ["user", "seen"]);
  const remember = async (s: Values, ctx: NodeContext) => {
    const user = s.user as string;
    const past = await ctx.store!.search(["users", user, "visits"]);
    await ctx.store!.put(["users", user, "visits"], `v${past.length + 1}`, { by: ctx.graph });
    return { seen: past.length };
  };
  const child = graph({ name: "Child", fields: { user: null, seen: null }, nodes: [cn("remember", remember)], start: { edges: ["remember"] } });
  const spec = graph({
    name: "Memory",
    fields: { user: null, seen: null },
    nodes: [n("sub", (s: Values, ctx) => ctx.runSubgraph(child, s), { subgraph: child })],
    start: { edges: ["sub"] },
  });

  it("is shared across threads and reaches subgraphs; a per-run store overrides the compiled one", async () => {
    const store = new InMemoryStore();
    const g = compileGraph(spec, { checkpointer: new MemorySaver(), store });
    expect(await g.invoke({ user: "ada" }, { configurable: { thread_id: "t1" } })).toEqual({ user: "ada", seen: 0 });
    expect(await g.invoke({ user: "ada" }, { configurable: { thread_id: "t2" } })).toEqual({ user: "ada", seen: 1 });
    expect((await store.search(["users", "ada"])).map((i) => [i.key, i.value])).toEqual([
      ["v1", { by: "Child" }],
      ["v2", { by: "Child" }],
    ]);
    const other: Store = new InMemoryStore();
    expect(await g.invoke({ user: "ada" }, { configurable: { thread_id: "t3" }, store: other })).toEqual({ user: "ada", seen: 0 });
  });

  it("is undefined when no store was given", async () => {
    let got: unknown = "unset";
    const probe = graph({ name: "P", fields: { x: null }, nodes: [nodeFactory("P", ["x"])("p", (_s: Values, ctx) => ((got = ctx.store), { x: 1 }))], start: { edges: ["p"] } });
    await compileGraph(probe).invoke({ x: 0 });
    expect(got).toBeUndefined();
  });
});
