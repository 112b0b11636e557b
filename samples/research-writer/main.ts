/**
 * Seed 000, end to end: `npx tsx samples/research-writer/main.ts` (after building, see README).
 * 1. ResearchWriter streamed with `subgraphs: true`: every update carries its namespace, so the
 *    research subgraph's `search` shows as `[research:…]` and the writer's `write` as `[writer:…]`.
 * 2. ResearchWriterRenamed: the parent says `user_query`, the child `topic`, joined by an explicit mapping.
 */
import { ResearchWriter, ResearchWriterRenamed } from "./research_writer.graph.ts";
import { asStreamEvent, describeEvent, nodePath, nodeUpdates } from "../shared/progress.ts";
import { isMain } from "../shared/is-main.ts";

export const TOPIC = "LangGraph 流式输出的价值";

export interface StreamedUpdate {
  /** node names of the namespace, root = [] */
  path: string[];
  node: string;
  fields: string[];
}

export async function run(log: (line: string) => void = console.log) {
  log(`== ResearchWriter (shared fields), streamed with subgraphs: true`);
  const updates: StreamedUpdate[] = [];
  for await (const chunk of ResearchWriter.stream({ topic: TOPIC }, { streamMode: "updates", subgraphs: true })) {
    const event = asStreamEvent(chunk);
    for (const line of describeEvent(event)) log(line);
    for (const [node, update] of nodeUpdates(event)) {
      updates.push({ path: nodePath(event.namespace), node, fields: Object.keys(update ?? {}) });
    }
  }
  const shared = await ResearchWriter.invoke({ topic: TOPIC });
  log(`article: ${shared.article}`);

  log(`== ResearchWriterRenamed (user_query -> topic through an explicit mapping)`);
  const renamed = await ResearchWriterRenamed.invoke({ user_query: TOPIC });
  log(`article: ${renamed.article}`);
  return { updates, shared, renamed };
}

if (isMain(import.meta.url)) await run();
