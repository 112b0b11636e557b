/**
 * LangGraph's own conformance suite for savers (`@langchain/langgraph-checkpoint-validation`, 718 cases per
 * saver: put, putWrites, getTuple, list, deleteThread) on graphc's three savers, seen through
 * `asLangGraphSaver` (@graphc/langgraph) as LangGraph.js sees them (issue 13 §5).
 */
import { join } from "node:path";
import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MemorySaver } from "@graphc/runtime";
import { SqliteSaver } from "@graphc/checkpoint-sqlite";
import { PostgresSaver } from "@graphc/checkpoint-postgres";
import { asLangGraphSaver, type GraphcLangGraphSaver } from "@graphc/langgraph";
import { postgresUrl } from "./pg-env.ts";
import { tempDir } from "../temp-dir.ts";

// the suite calls vitest's functions as globals (it is written for `globals: true`)
Object.assign(globalThis, { describe, it, expect, beforeAll, afterAll, beforeEach, afterEach });
const { validate } = await import("@langchain/langgraph-checkpoint-validation");

const tmp = tempDir("lg-validation");
const url = postgresUrl();
const tag = `graphc_lgv_${process.pid}_${Date.now().toString(36)}`;
const admin = new pg.Pool({ connectionString: url, max: 1 });
let n = 0;
const schemas: string[] = [];
afterAll(async () => {
  for (const s of schemas) await admin.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
  await admin.end();
  tmp.remove();
});

validate({ checkpointerName: "graphc MemorySaver", createCheckpointer: () => asLangGraphSaver(new MemorySaver()) });

validate({
  checkpointerName: "graphc SqliteSaver",
  createCheckpointer: () => asLangGraphSaver(new SqliteSaver(join(tmp.dir, `v${++n}.db`))),
  destroyCheckpointer: (c: GraphcLangGraphSaver) => (c.saver as SqliteSaver).close(),
});

validate({
  checkpointerName: "graphc PostgresSaver",
  createCheckpointer: async () => {
    const schema = `${tag}_${++n}`;
    schemas.push(schema);
    const saver = new PostgresSaver(new pg.Pool({ connectionString: url, max: 2 }), { schema }, true);
    await saver.setup();
    return asLangGraphSaver(saver);
  },
  destroyCheckpointer: (c: GraphcLangGraphSaver) => (c.saver as PostgresSaver).end(),
});
