/**
 * The demo's chat page, served at `/chat` (`graphc serve --chat`, `npm run serve`): plain HTML and a
 * script using fetch — a run is streamed from `POST /threads/{id}/runs/stream` (EventSource cannot POST,
 * so the SSE body is read from the fetch response). It shows the conversation (the thread's `messages`),
 * every streamed step with its subgraph namespace, and, when the run stops at an interrupt, the question
 * with buttons that resume it (`command: { resume }`). Written for the customer-service graph (the input is
 * `{ messages, user_id }`), the graph id and user are query parameters (`?graph=…&user=…`).
 */
import type { Hono } from "hono";
import type { Env } from "./api.ts";

export function chatPage(app: Hono<Env>): void {
  app.get("/chat", (c) => c.html(CHAT_HTML));
}

// the page's script avoids backticks and dollar-brace so that it can live in this template literal unchanged
const CHAT_HTML = String.raw`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>graphc — customer service</title>
<style>
  body { font: 15px/1.4 system-ui, sans-serif; margin: 0; display: grid; grid-template-columns: 1fr 26rem; height: 100vh; }
  main, aside { padding: 1rem; overflow: auto; }
  aside { background: #f4f4f6; border-left: 1px solid #ddd; font-size: 13px; }
  #conversation { list-style: none; padding: 0; }
  #conversation li { margin: .4rem 0; padding: .5rem .7rem; border-radius: .6rem; max-width: 80%; white-space: pre-wrap; }
  #conversation li.user { background: #dbeafe; margin-left: auto; }
  #conversation li.assistant { background: #eee; }
  #steps { padding-left: 1.2rem; }
  #steps .ns { color: #777; }
  #confirm { display: none; border: 2px solid #f59e0b; border-radius: .6rem; padding: .7rem; margin: .5rem 0; }
  form { display: flex; gap: .5rem; }
  input[type=text] { flex: 1; padding: .5rem; }
</style>
</head>
<body>
<main>
  <h1>Customer service</h1>
  <p>thread <code id="thread">…</code> · <span id="status">starting</span></p>
  <ul id="conversation"></ul>
  <div id="confirm">
    <p id="question"></p>
    <button id="approve" type="button">Approve</button>
    <button id="reject" type="button">Reject</button>
  </div>
  <form id="send">
    <input id="message" type="text" autocomplete="off" placeholder="e.g. ORD1003 也要退款">
    <button type="submit">Send</button>
  </form>
</main>
<aside>
  <h2>Streamed steps</h2>
  <ol id="steps"></ol>
</aside>
<script type="module">
const params = new URLSearchParams(location.search);
const graph = params.get("graph") || "CustomerService";
const user = params.get("user") || "u1001";
const $ = (id) => document.getElementById(id);
let threadId;

function setStatus(text) { $("status").textContent = text; }

async function call(path, body) {
  const res = await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(res.status + " " + (await res.text()));
  return res;
}

function showMessages(messages) {
  const list = $("conversation");
  list.replaceChildren();
  for (const m of messages || []) {
    if (m.role !== "user" && m.role !== "assistant") continue;
    const li = document.createElement("li");
    li.className = m.role;
    li.textContent = typeof m.content === "string" ? m.content : JSON.stringify(m.content);
    list.append(li);
  }
}

function addStep(ns, node, update) {
  const li = document.createElement("li");
  const where = document.createElement("span");
  where.className = "ns";
  where.textContent = "[" + (ns.length ? ns.map((s) => s.split(":")[0]).join(" › ") : "root") + "] ";
  li.append(where, node + (update && typeof update === "object" ? " → " + Object.keys(update).join(", ") : ""));
  $("steps").append(li);
}

function askConfirmation(interrupt) {
  $("question").textContent = (interrupt.value && interrupt.value.question) || JSON.stringify(interrupt.value);
  $("confirm").style.display = "block";
  setStatus("waiting for confirmation");
}

/** Streams one run and renders its events; resolves when the stream ends. */
async function streamRun(payload) {
  setStatus("running");
  $("confirm").style.display = "none";
  const res = await call("/threads/" + threadId + "/runs/stream", Object.assign({
    assistant_id: graph, stream_mode: ["updates", "values"], stream_subgraphs: true,
  }, payload));
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let interrupted = false;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = "", data = "";
      for (const line of block.split("\n")) {
        if (line.startsWith("event: ")) event = line.slice(7);
        else if (line.startsWith("data: ")) data += line.slice(6);
      }
      if (!event || !data) continue;
      const payloadData = JSON.parse(data);
      const [mode, ...ns] = event.split("|");
      // at an interrupt the values mode sends { __interrupt__ } alone: the conversation stays as it was
      if (mode === "values" && ns.length === 0 && Array.isArray(payloadData.messages)) showMessages(payloadData.messages);
      if (mode === "updates") {
        for (const [node, update] of Object.entries(payloadData)) {
          if (node === "__interrupt__") {
            if (ns.length === 0 && update.length > 0) { interrupted = true; askConfirmation(update[0]); }
            continue;
          }
          addStep(ns, node, update);
        }
      }
      if (mode === "error") setStatus("error: " + payloadData.message);
    }
  }
  if (!interrupted && !$("status").textContent.startsWith("error")) setStatus("idle");
}

$("send").addEventListener("submit", async (e) => {
  e.preventDefault();
  const text = $("message").value.trim();
  if (!text) return;
  $("message").value = "";
  const li = document.createElement("li");
  li.className = "user";
  li.textContent = text;
  $("conversation").append(li);
  await streamRun({ input: { messages: [{ role: "user", content: text }], user_id: user } });
});
$("approve").addEventListener("click", () => streamRun({ command: { resume: { approved: true, actor: "human:web" } } }));
$("reject").addEventListener("click", () => streamRun({ command: { resume: { approved: false, actor: "human:web" } } }));

const thread = await (await call("/threads", { metadata: { graph_id: graph } })).json();
threadId = thread.thread_id;
$("thread").textContent = threadId;
setStatus("idle");
</script>
</body>
</html>
`;
