/**
 * Runtime conformance: the cases of reference §8 (langgraph-semantics.md) written as `.graph` programs
 * (test/conformance/graphs), compiled by graphc in one batch and run on graphc's runtime. Groups A–E, G and
 * the §8.3 micro-cases run without a checkpointer; groups F–H (and the checkpointer halves of earlier
 * cases) run against MemorySaver, SqliteSaver and PostgresSaver. Case by case status: docs/conformance.md.
 */
import { beforeAll } from "vitest";
import { buildPrograms } from "./context.ts";
import { channels } from "./cases/a-channels.ts";
import { schemas } from "./cases/b-schemas.ts";
import { edges } from "./cases/c-edges.ts";
import { sends } from "./cases/d-send.ts";
import { commands } from "./cases/e-command.ts";
import { subgraphs } from "./cases/g-subgraphs.ts";
import { micro } from "./cases/micro.ts";

beforeAll(async () => {
  await buildPrograms();
});

channels();
schemas();
edges();
sends();
commands();
subgraphs();
micro();
