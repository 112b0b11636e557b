/**
 * The ChatDev 2.0 demos, re-expressed with typed state: `npx tsx samples/chatdev/main.ts` (after
 * building, see README). Every agent is scripted, so each run prints the same thing.
 */
import { SubGraphPath } from "./sub_graph_path.graph.ts";
import { SubGraphInline } from "./sub_graph_inline.graph.ts";
import { ReactMain } from "./react.graph.ts";
import { LoopCounter } from "./loop_counter.graph.ts";
import { asStreamEvent, describeEvent, nodePath, nodeUpdates } from "../shared/progress.ts";
import { isMain } from "../shared/is-main.ts";

export async function run(log: (line: string) => void = console.log) {
  log("== demo_sub_graph_path: writer -> article_discuss (file subgraph: 3 critics in parallel -> editor) -> reviser");
  const pathEvents: string[] = [];
  for await (const chunk of SubGraphPath.stream({ word: "秋天" }, { streamMode: "updates", subgraphs: true })) {
    const event = asStreamEvent(chunk);
    for (const line of describeEvent(event)) log(line);
    for (const [node] of nodeUpdates(event)) pathEvents.push([...nodePath(event.namespace), node].join("/"));
  }
  const path = await SubGraphPath.invoke({ word: "秋天" });
  log(path.final);

  log("== demo_sub_graph: the same shape with an inline subgraph (paper_critique, entry b1)");
  const inline = await SubGraphInline.invoke({ word: "秋天" });
  log(inline.final);

  log("== react: task normalizer -> react_agent subgraph (brain <-> tool executor) -> QA editor, looping on TODO");
  const react = await ReactMain.invoke({ request: "巴黎今天的天气适合散步吗？" });
  log(`${react.report} (QA rounds: ${react.reviews})`);

  log("== demo_loop_counter: writer <-> critic, the loop gate lets 3 iterations through");
  const loop = await LoopCounter.invoke({ topic: "产品介绍" });
  log(loop.final);

  return { pathEvents, path, inline, react, loop };
}

if (isMain(import.meta.url)) await run();
