/**
 * A run's events as a Server-Sent Events response, in the LangGraph Server's framing: `event:` the mode
 * (`updates`, `updates|<ns>` with subgraphs, `metadata`, `error`), `data:` JSON, `id:` the event's
 * position (for Last-Event-ID). The internal `end` event closes the response instead of being sent; a
 * comment line every 15 s keeps idle connections (and proxies) open.
 */
import type { Context } from "hono";
import type { StreamEvent } from "./backend.ts";

const HEARTBEAT_MS = 15_000;

export function sseResponse(c: Context, events: AsyncIterable<StreamEvent>): Response {
  const encoder = new TextEncoder();
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let iterator: AsyncIterator<StreamEvent> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      heartbeat = setInterval(() => controller.enqueue(encoder.encode(": heartbeat\n\n")), HEARTBEAT_MS);
      heartbeat.unref();
      iterator = events[Symbol.asyncIterator]();
    },
    async pull(controller) {
      const next = await iterator!.next();
      if (next.done || next.value.event === "end") {
        clearInterval(heartbeat);
        controller.close();
        return;
      }
      const { seq, event, data } = next.value;
      controller.enqueue(encoder.encode(`id: ${seq}\nevent: ${event}\ndata: ${JSON.stringify(data ?? null)}\n\n`));
    },
    cancel() {
      clearInterval(heartbeat);
      void iterator?.return?.();
    },
  });
  c.header("Content-Type", "text/event-stream");
  c.header("Cache-Control", "no-cache");
  c.header("Connection", "keep-alive");
  return c.body(body);
}
