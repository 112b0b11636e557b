/**
 * Assistants: one per served graph, read-only; `assistant_id` = `graph_id` = the graph's name. The
 * schemas are graphc's JSON Schema of the graph's input, output and state (compiler/schema/json-schema.ts).
 */
import type { Hono } from "hono";
import { type Api, type ApiGraph, type Env, body } from "./api.ts";

/** fixed: the graphs are loaded when the server starts */
const STARTED = new Date().toISOString();

export function assistantJson(g: ApiGraph) {
  return {
    assistant_id: g.id,
    graph_id: g.id,
    name: g.id,
    description: null,
    config: {},
    context: {},
    metadata: { created_by: "graphc" },
    version: 1,
    created_at: STARTED,
    updated_at: STARTED,
  };
}

export function assistantRoutes(app: Hono<Env>, api: Api): void {
  const matching = (q: Record<string, unknown>) =>
    [...api.graphs.values()].filter((g) => (q["graph_id"] === undefined || q["graph_id"] === g.id) && (q["name"] === undefined || q["name"] === g.id));

  app.post("/assistants/search", async (c) => {
    const q = await body(c);
    const offset = Number(q["offset"] ?? 0);
    const limit = Number(q["limit"] ?? 10);
    const found = matching(q).map(assistantJson);
    const page = found.slice(offset, offset + limit);
    if (offset + limit < found.length) c.header("X-Pagination-Next", String(offset + limit));
    return c.json(page);
  });
  app.post("/assistants/count", async (c) => c.json(matching(await body(c)).length));
  app.get("/assistants/:id", (c) => c.json(assistantJson(api.assistant(c.req.param("id")))));
  app.get("/assistants/:id/schemas", (c) => {
    const g = api.assistant(c.req.param("id"));
    return c.json({
      graph_id: g.id,
      input_schema: g.schemas.input,
      output_schema: g.schemas.output,
      state_schema: g.schemas.state,
      config_schema: null,
      context_schema: null,
    });
  });
}
