/**
 * Readable progress lines for `stream(..., { streamMode: "updates", subgraphs: true })` events:
 * `[research:1a2b…] search → notes, messages`. A namespace segment is `node:taskId`; the root graph's is
 * empty and shown as `[root]`.
 */

/** `research:1f0c…|search:…` → the node names, root = [] */
export function nodePath(namespace: readonly string[]): string[] {
  return namespace.map((segment) => segment.split(":")[0] ?? segment);
}

/** task ids are long uuids: keep the first 8 characters so lines stay readable */
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

/** one line per node in an `updates` payload; message lists show their last message's text */
export function describeUpdates(namespace: readonly string[], payload: unknown): string[] {
  if (payload === null || typeof payload !== "object") return [`[${shortNamespace(namespace)}] ${brief(payload)}`];
  const lines: string[] = [];
  for (const [node, update] of Object.entries(payload as Record<string, unknown>)) {
    if (node === "__interrupt__") {
      lines.push(`[${shortNamespace(namespace)}] ⏸ interrupt ${brief(update, 120)}`);
      continue;
    }
    const fields =
      update && typeof update === "object" && !Array.isArray(update)
        ? Object.entries(update as Record<string, unknown>)
            .filter(([k]) => k !== "__metadata__")
            .map(([k, v]) => `${k}=${brief(k === "messages" && Array.isArray(v) ? (v.at(-1) as { content?: unknown })?.content : v, 60)}`)
        : [brief(update)];
    const cached = (update as { __metadata__?: { cached?: boolean } } | undefined)?.__metadata__?.cached ? " (cached)" : "";
    lines.push(`[${shortNamespace(namespace)}] ${node}${cached} → ${fields.join(", ") || "(no change)"}`);
  }
  return lines;
}
