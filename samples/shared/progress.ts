/**
 * Readable progress lines for `stream(…, { subgraphs: true })` chunks, one line per event:
 *   [research:1a2b3c4d] search → notes=…, messages(2)        an `updates` event
 *   [query:5e4ded9a] · get_logistics failed: … (will retry)   a `custom` event (ctx.writer)
 * A namespace segment is `node:taskId` (the id shortened here); the root graph's namespace is empty and
 * shown as `[root]`.
 */

export interface StreamEvent {
  /** `node:taskId` segments from the root; [] for the root graph */
  namespace: string[];
  mode: string;
  payload: unknown;
}

/**
 * The stream yields `unknown` (the shape depends on the options). With `subgraphs: true` a chunk is
 * `[namespace, payload]` for one stream mode and `[namespace, mode, payload]` for several.
 */
export function asStreamEvent(chunk: unknown, singleMode = "updates"): StreamEvent {
  if (Array.isArray(chunk) && Array.isArray(chunk[0])) {
    if (chunk.length === 2) return { namespace: chunk[0] as string[], mode: singleMode, payload: chunk[1] };
    if (chunk.length === 3 && typeof chunk[1] === "string") {
      return { namespace: chunk[0] as string[], mode: chunk[1], payload: chunk[2] };
    }
  }
  throw new TypeError(
    `expected a [namespace, (mode,) payload] chunk (stream with subgraphs: true), got ${JSON.stringify(chunk)}`,
  );
}

/** `["research:1f0c…", "search:…"]` → `["research", "search"]` */
export function nodePath(namespace: readonly string[]): string[] {
  return namespace.map((segment) => segment.split(":")[0] ?? segment);
}

/** task ids are long: keep their first 8 characters so lines stay readable */
export function shortNamespace(namespace: readonly string[]): string {
  if (namespace.length === 0) return "root";
  return namespace
    .map((segment) => {
      const [node, id = ""] = segment.split(":");
      return id ? `${node}:${id.slice(0, 8)}` : `${node}`;
    })
    .join("|");
}

function brief(value: unknown, max = 80): string {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  const oneLine = (text ?? "undefined").replace(/\s+/g, " ");
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}

function describeUpdate(update: unknown): string {
  if (!update || typeof update !== "object" || Array.isArray(update)) return brief(update);
  const fields = Object.entries(update as Record<string, unknown>).map(([k, v]) =>
    // message lists can be long and repeat the history: their length says enough
    k === "messages" && Array.isArray(v) ? `messages(${v.length})` : `${k}=${brief(v, 60)}`,
  );
  return fields.join(", ") || "(no change)";
}

/** one line per node of an `updates` payload, per interrupt, or per `custom` event */
export function describeEvent(event: StreamEvent): string[] {
  const at = `[${shortNamespace(event.namespace)}]`;
  if (event.mode === "custom")
    return [`${at} · ${typeof event.payload === "string" ? event.payload : brief(event.payload, 120)}`];
  if (event.mode !== "updates" || !event.payload || typeof event.payload !== "object") {
    return [`${at} ${event.mode}: ${brief(event.payload)}`];
  }
  const payload = event.payload as Record<string, unknown>;
  const cached = (payload["__metadata__"] as { cached?: boolean } | undefined)?.cached ? " (cached)" : "";
  const lines: string[] = [];
  for (const [node, update] of Object.entries(payload)) {
    if (node === "__metadata__") continue;
    if (node === "__interrupt__") lines.push(`${at} ⏸ interrupt ${brief(update, 120)}`);
    else lines.push(`${at} ${node}${cached} → ${describeUpdate(update)}`);
  }
  return lines;
}

/** the node updates of an `updates` event (interrupts and metadata left out) */
export function nodeUpdates(event: StreamEvent): [node: string, update: unknown][] {
  if (event.mode !== "updates" || !event.payload || typeof event.payload !== "object") return [];
  return Object.entries(event.payload as Record<string, unknown>).filter(([k]) => !k.startsWith("__"));
}
