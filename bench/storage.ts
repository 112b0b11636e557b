/**
 * Bytes stored for a messages thread of 200 and of 800 steps (one message appended per step):
 * graphc's SqliteSaver vs LangGraph's @langchain/langgraph-checkpoint-sqlite.
 *
 *   npx tsx bench/storage.ts
 *
 * graphc's saver is driven with checkpoints shaped as runtime/loop.ts writes them (test/savers/
 * messages-thread.ts); LangGraph's through a real StateGraph on MessagesAnnotation whose one node appends a
 * message per step. Both write to a fresh SQLite file; "file" is the database size after a WAL checkpoint,
 * "payload" the summed length of the stored columns. Target (issue 4): graphc's 800-step figure ≤ 5× its
 * 200-step figure (linear); LangGraph's grows quadratically (~16×).
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { SqliteSaver as LangGraphSqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import type Database from "better-sqlite3";
import { SqliteSaver } from "@graphc/checkpoint-sqlite";
import { message, runMessagesThread } from "../test/savers/messages-thread.ts";

export interface StorageFigures {
  steps: number;
  fileBytes: number;
  payloadBytes: number;
  msPerStep: number;
}

export interface StorageResult {
  graphc: StorageFigures[];
  langgraph: StorageFigures[];
}

const STEPS = [200, 800] as const;

function fileBytes(db: Database.Database, path: string): number {
  db.pragma("wal_checkpoint(TRUNCATE)");
  return statSync(path).size;
}

function sum(db: Database.Database, sql: string): number {
  return Number((db.prepare(sql).get() as { n: number | bigint | null }).n ?? 0);
}

async function graphcFigures(dir: string, steps: number): Promise<StorageFigures> {
  const path = join(dir, `graphc-${steps}.db`);
  const saver = new SqliteSaver(path);
  const t0 = performance.now();
  await runMessagesThread(saver, "thread", steps);
  const msPerStep = (performance.now() - t0) / steps;
  const payloadBytes =
    sum(saver.db, "SELECT SUM(LENGTH(CAST(header AS BLOB)) + LENGTH(CAST(metadata AS BLOB)) + LENGTH(CAST(writes AS BLOB)) + LENGTH(CAST(blobs AS BLOB))) AS n FROM graphc_checkpoints") +
    sum(saver.db, "SELECT SUM(LENGTH(CAST(data AS BLOB))) AS n FROM graphc_blobs") +
    sum(saver.db, "SELECT SUM(LENGTH(CAST(writes AS BLOB))) AS n FROM graphc_writes");
  const figures = { steps, fileBytes: fileBytes(saver.db, path), payloadBytes, msPerStep };
  saver.close();
  return figures;
}

async function langgraphFigures(dir: string, steps: number): Promise<StorageFigures> {
  const path = join(dir, `langgraph-${steps}.db`);
  const saver = LangGraphSqliteSaver.fromConnString(path);
  // the same messages as the graphc driver: alternating human/ai, one per step
  const graph = new StateGraph(MessagesAnnotation)
    .addNode("agent", (state) => {
      const i = state.messages.length;
      const m = message(i);
      const fields = { id: m.id as string, content: m.content as string };
      return { messages: [i % 2 === 0 ? new HumanMessage(fields) : new AIMessage(fields)] };
    })
    .addEdge(START, "agent")
    .addConditionalEdges("agent", (state) => (state.messages.length < steps ? "agent" : END))
    .compile({ checkpointer: saver });
  const t0 = performance.now();
  await graph.invoke({ messages: [] }, { configurable: { thread_id: "thread" }, recursionLimit: steps + 10 });
  const msPerStep = (performance.now() - t0) / steps;
  const payloadBytes =
    sum(saver.db, "SELECT SUM(LENGTH(checkpoint) + LENGTH(metadata)) AS n FROM checkpoints") +
    sum(saver.db, "SELECT SUM(LENGTH(value)) AS n FROM writes");
  const figures = { steps, fileBytes: fileBytes(saver.db, path), payloadBytes, msPerStep };
  saver.db.close();
  return figures;
}

export async function runStorageBench(): Promise<StorageResult> {
  const dir = mkdtempSync(join(tmpdir(), "graphc-storage-bench-"));
  try {
    const graphc: StorageFigures[] = [];
    const langgraph: StorageFigures[] = [];
    for (const steps of STEPS) {
      graphc.push(await graphcFigures(dir, steps));
      langgraph.push(await langgraphFigures(dir, steps));
    }
    return { graphc, langgraph };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function formatStorage(result: StorageResult): string {
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
  const rows: string[][] = [["saver", "measure", ...STEPS.map((s) => `${s} steps`), "800/200"]];
  for (const [name, figures] of [
    ["graphc SqliteSaver", result.graphc],
    ["LangGraph SqliteSaver", result.langgraph],
  ] as const) {
    for (const measure of ["fileBytes", "payloadBytes"] as const) {
      const [a, b] = [figures[0]![measure], figures[1]![measure]];
      rows.push([name, measure === "fileBytes" ? "file" : "payload", kb(a), kb(b), `${(b / a).toFixed(2)}×`]);
    }
    rows.push([name, "ms/step", ...figures.map((f) => f.msPerStep.toFixed(3)), ""]);
  }
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  const lines = rows.map((r) => r.map((cell, c) => (c < 2 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join("  "));
  const ratio = (f: StorageFigures[]) => f[1]!.payloadBytes / f[0]!.payloadBytes;
  const ours = ratio(result.graphc);
  const theirs = ratio(result.langgraph);
  const at800 = result.langgraph[1]!.payloadBytes / result.graphc[1]!.payloadBytes;
  lines.push(
    "",
    `graphc 800/200 = ${ours.toFixed(2)}× (target ≤ 5×: ${ours <= 5 ? "met" : "MISSED"}); ` +
      `LangGraph 800/200 = ${theirs.toFixed(2)}×; at 800 steps LangGraph stores ${at800.toFixed(0)}× more`,
  );
  return lines.join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log("bytes stored for a messages thread, one message appended per step (SQLite)\n");
  console.log(formatStorage(await runStorageBench()));
}
