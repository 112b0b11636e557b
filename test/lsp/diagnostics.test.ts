/** Diagnostics as you type, over stdio: an error appears on an edit and clears when the edit is fixed. */
import { writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HELLO_GRAPH, HELLO_NODES } from "../cli/harness.ts";
import { tempDir } from "../temp-dir.ts";
import { LspClient, REPO, uriOf } from "./client.ts";

const FILE = "samples/customer-service/decision.graph";
let client: LspClient;

beforeAll(async () => {
  client = await LspClient.start({ debounceMs: 20 });
}, 60_000);
const tmp = tempDir("lsp-watch");
afterAll(async () => {
  tmp.remove();
  await client.stop();
  expect(client.exitCode).toBe(0);
});

describe("diagnostics", () => {
  it("publishes none for a valid sample, the TypeScript pass included", async () => {
    const uri = await client.open(FILE);
    const diags = await client.waitForDiagnostics(uri);
    expect(diags).toEqual([]);
  }, 60_000);

  it("reports a misspelt node as you type, with its hint, and clears it when fixed", async () => {
    const uri = await client.open(FILE);
    const good = client.text(uri);
    const broken = good.replace("model_fallback -> END", "model_fallbak -> END");
    await client.change(uri, broken);
    const diags = await client.waitForDiagnostics(uri, (d) => d.length > 0);
    expect(diags).toHaveLength(1);
    expect(diags[0]).toMatchObject({ code: "G2003", severity: 1, range: { start: { line: broken.split("\n").findIndex((l) => l.includes("model_fallbak")) } } });
    expect(diags[0]!.data?.hint).toMatch(/^did you mean `model_fallback`\?/);
    await client.change(uri, good);
    expect(await client.waitForDiagnostics(uri, (d) => d.length === 0)).toEqual([]);
  }, 60_000);

  it("reports a node function whose signature does not fit (the TypeScript pass) on the node's line", async () => {
    const uri = await client.open(FILE);
    const good = client.text(uri);
    // `rules` runs askModel, which needs `query_result`, without reading it: only the TypeScript pass can tell
    const broken = good.replace(/node rules\(\{ intent, query_result \}\)(\s*)-> \{ decision, reason \} = applyRules/, "node rules({ intent })$1-> { decision, reason } = askModel");
    expect(broken).not.toBe(good);
    await client.change(uri, broken);
    const diags = await client.waitForDiagnostics(uri, (d) => d.length > 0);
    expect(diags.map((d) => d.code)).toContain("G3092");
    await client.change(uri, good);
    await client.waitForDiagnostics(uri, (d) => d.length === 0);
  }, 60_000);

  it("re-checks the files beside an edited one: a subgraph's output dropped breaks its (closed) parent", async () => {
    const uri = await client.open("samples/customer-service/reception.graph");
    const parent = uriOf("samples/customer-service/customer_service.graph");
    const good = client.text(uri);
    await client.change(uri, good.replace("output { messages, intent, entities, unknown_streak, need_human }", "output { messages, intent, entities, unknown_streak }"));
    const diags = await client.waitForDiagnostics(parent, (d) => d.length > 0);
    expect(diags.map((d) => d.code)).toEqual(["G5003"]);
    expect(diags[0]!.message).toContain("`need_human`");
    await client.change(uri, good);
    expect(await client.waitForDiagnostics(parent, (d) => d.length === 0)).toEqual([]);
  }, 60_000);

  it("re-checks when a node module changes on disk (workspace/didChangeWatchedFiles)", async () => {
    writeFileSync(join(tmp.dir, "hello.nodes.ts"), HELLO_NODES);
    writeFileSync(join(tmp.dir, "hello.graph"), HELLO_GRAPH);
    const uri = await client.open(relative(REPO, join(tmp.dir, "hello.graph")));
    expect(await client.waitForDiagnostics(uri)).toEqual([]);
    const nodes = join(tmp.dir, "hello.nodes.ts");
    writeFileSync(nodes, HELLO_NODES.replace("s: { name: string }", "s: { name: number }"));
    await client.connection.sendNotification("workspace/didChangeWatchedFiles", { changes: [{ uri: pathToFileURL(nodes).href, type: 2 }] });
    const diags = await client.waitForDiagnostics(uri, (d) => d.length > 0);
    expect(diags.map((d) => d.code)).toEqual(["G3092"]);
    await client.close(uri);
  }, 60_000);
});
