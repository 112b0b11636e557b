/**
 * Stored data that cannot be read back: a typed `CORRUPT_CHECKPOINT` error naming where it was found
 * (thread, namespace, checkpoint id, channel) and what was wrong, instead of a bare SyntaxError/TypeError
 * from deep inside decoding. Every read path of StoredSaver decodes through these helpers, so memory,
 * SQLite and Postgres report the same damage the same way (see docs/checkpoints.md, "Corrupted data").
 */
import { CheckpointError } from "./errors.ts";
import { messageOf } from "../errors.ts";
import { decode } from "./serde.ts";

/** Where damaged data sits; each part is absent when the damage is not that specific (e.g. a missing table). */
export interface CorruptSite {
  thread_id?: string | undefined;
  checkpoint_ns?: string | undefined;
  checkpoint_id?: string | undefined;
  channel?: string | undefined;
}

const HINT =
  "The stored data was changed outside graphc or damaged: restore it from a backup, or delete the thread " +
  "(saver.deleteThread) to start it again.";

export class CorruptCheckpointError extends CheckpointError {
  readonly threadId: string | undefined;
  readonly checkpointNs: string | undefined;
  readonly checkpointId: string | undefined;
  readonly channel: string | undefined;
  /** what was wrong, without the site (e.g. "blob is not valid JSON: Unexpected token …") */
  readonly problem: string;
  override readonly cause: unknown;

  constructor(site: CorruptSite, problem: string, cause?: unknown, hint = HINT) {
    super("CORRUPT_CHECKPOINT", `Corrupt checkpoint data${describe(site)}: ${problem}. ${hint}`, site.channel);
    this.threadId = site.thread_id;
    this.checkpointNs = site.checkpoint_ns;
    this.checkpointId = site.checkpoint_id;
    this.channel = site.channel;
    this.problem = problem;
    this.cause = cause;
  }
}

function describe(site: CorruptSite): string {
  const parts: string[] = [];
  if (site.thread_id !== undefined) parts.push(`thread ${JSON.stringify(site.thread_id)}`);
  if (site.checkpoint_ns) parts.push(`namespace ${JSON.stringify(site.checkpoint_ns)}`);
  if (site.checkpoint_id !== undefined) parts.push(`checkpoint ${JSON.stringify(site.checkpoint_id)}`);
  if (site.channel !== undefined) parts.push(`channel ${JSON.stringify(site.channel)}`);
  return parts.length === 0 ? "" : ` (${parts.join(", ")})`;
}

/**
 * Decodes one stored text (`what`: "the stored value", "a pending write of task …", "the metadata"), turning
 * any failure — not text at all, not JSON, a tag whose payload has the wrong shape — into
 * CORRUPT_CHECKPOINT. The site with `channel` is built only for the error (this runs for every value read).
 */
export function decodeStored(text: unknown, at: CorruptSite, channel: string | undefined, what: string): unknown {
  if (typeof text !== "string") throw new CorruptCheckpointError(withChannel(at, channel), `${what} is ${typeName(text)}, not text`);
  try {
    return decode(text);
  } catch (e) {
    if (e instanceof CorruptCheckpointError) throw e;
    throw new CorruptCheckpointError(
      withChannel(at, channel),
      `${what} cannot be decoded: ${messageOf(e)} (stored text: ${excerpt(text)})`,
      e,
    );
  }
}

function withChannel(at: CorruptSite, channel: string | undefined): CorruptSite {
  const { thread_id, checkpoint_ns, checkpoint_id } = at;
  return { thread_id, checkpoint_ns, checkpoint_id, channel };
}

/** JSON.parse for stored structure (headers), with the same error. */
export function parseStored(text: unknown, site: CorruptSite, what: string): unknown {
  if (typeof text !== "string") throw new CorruptCheckpointError(site, `${what} is ${typeName(text)}, not text`);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new CorruptCheckpointError(site, `${what} is not valid JSON: ${messageOf(e)} (stored text: ${excerpt(text)})`, e);
  }
}

/** The start of a damaged text, enough to recognise it in the database without echoing a huge value. */
export function excerpt(text: string): string {
  return JSON.stringify(text.length <= 60 ? text : text.slice(0, 60) + "…");
}

export function typeName(v: unknown): string {
  if (v === null) return "null";
  if (v === undefined) return "missing";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "object") return v instanceof Uint8Array ? "binary data" : "an object";
  return `a ${typeof v}`;
}
