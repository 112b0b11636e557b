/**
 * How savers lay a checkpoint out in storage so that a thread of N steps costs O(N) bytes.
 *
 * A checkpoint is stored as a small *header* (ts, versions, and for every channel either its value inline or
 * a reference to the checkpoint whose *blob* holds it) plus blobs for the channels it changed:
 *
 * - unchanged channel (same version as in the parent and not in `newVersions`, or same encoded text): no
 *   blob, the header points at the parent's blob — nothing is re-encoded;
 * - small value (≤ INLINE_MAX characters): inline in the header;
 * - array that only grew (its encoded text extends the parent's, element for element): an *append* blob
 *   holding only the new elements, pointing at the parent's blob of the same channel;
 * - anything else (first value, messages replaced by id, removals, non-arrays): a *full* blob.
 *
 * An append chain ends in a full blob when the appended bytes since the last full blob would exceed that
 * blob's size (or MAX_DEPTH rows). Full blobs therefore grow geometrically: the sum of all full blobs is at
 * most about twice the appended bytes, so storage stays linear, and reading a value costs at most about
 * twice its size in at most MAX_DEPTH rows.
 *
 * The prefix test works on encoded text: `[e1,…,ek` followed by `,` parses to the same k elements (JSON
 * values are self-delimiting), so the new array's first k elements encode exactly as the old ones did.
 *
 * Pure: used by MemorySaver (runtime/checkpoint/memory.ts) and the SQLite/Postgres adapters.
 */
import type { Checkpoint, CheckpointMetadata } from "./types.ts";
import { CheckpointError } from "./errors.ts";
import { encode, tryEncode } from "./serde.ts";

/** Values whose encoding is at most this long live in the header: cheaper than a blob and a reference. */
export const INLINE_MAX = 48;
/** Longest append chain (rows read to rebuild one value). */
export const MAX_DEPTH = 512;

/** One stored channel value, owned by the checkpoint that wrote it. */
export interface BlobRow {
  channel: string;
  /** 0: `data` is the encoded value; 1: `data` is an encoded array of elements appended to `base`'s blob */
  kind: 0 | 1;
  /** for kind 1: id of the checkpoint holding the blob this one extends (same thread, namespace, channel) */
  base: string | null;
  data: string;
  /** append rows since the last full row, this one included (0 for a full row) */
  depth: number;
  /** characters appended since the last full row, this one included */
  chain: number;
  /** size of the full row the chain starts from */
  snap: number;
}

/** What a saver remembers about one channel of a stored checkpoint (to encode its children cheaply). */
export interface ChannelHead {
  version: number | undefined;
  /** the encoded value */
  json: string;
  /** checkpoint id whose blob holds the value; null when it is inline in the header */
  owner: string | null;
  depth: number;
  chain: number;
  snap: number;
  /**
   * The elements of the value when it is an array (a shallow copy: the caller may reuse its array). A child
   * whose first elements are these same values (`Object.is`) extends it: only the new elements are encoded.
   * Stored values are taken as immutable, as for unchanged channels: an object changed in place after it
   * was handed to the saver is not re-read (the runtime's reducers always build new objects).
   */
  items?: readonly unknown[];
}

/** A stored checkpoint as seen by the encoder of its children. */
export interface Head {
  id: string;
  channels: Map<string, ChannelHead>;
}

/** The parsed header of a stored checkpoint. */
export interface StoredHeader {
  v: 1;
  ts: string;
  cv: Record<string, number>;
  vs: Record<string, Record<string, number>>;
  /**
   * channel → "=" + encoded value (inline), "@" + owner checkpoint id (a blob of an ancestor), or "@" alone
   * (a blob of this checkpoint: the id is not repeated in every header)
   */
  vals: Record<string, string>;
}

const NO_BLOBS: readonly BlobRow[] = Object.freeze([]);

export interface EncodedCheckpoint {
  header: string;
  metadata: string;
  blobs: readonly BlobRow[];
  head: Head;
}

/**
 * Lays out `checkpoint` against its parent. `parent` must be the stored checkpoint named by the put config's
 * `checkpoint_id` (or undefined: everything is stored in full).
 */
export function encodeCheckpoint(
  checkpoint: Checkpoint,
  metadata: CheckpointMetadata,
  newVersions: Record<string, number>,
  parent: Head | undefined,
  /** checkpoint.id, as the saver keeps it (see stored-saver.ts flatId) */
  id: string = checkpoint.id,
): EncodedCheckpoint {
  const vals: Record<string, string> = {};
  // allocated on the first blob, exactly sized (a saver may keep the array: no growth slack per checkpoint)
  let blobs: BlobRow[] | undefined;
  const channels = new Map<string, ChannelHead>();
  const values = checkpoint.channel_values;
  for (const channel of Object.keys(values)) {
    const version = checkpoint.channel_versions[channel];
    const prev = parent?.channels.get(channel);
    if (
      prev !== undefined &&
      typeof version === "number" &&
      prev.version === version &&
      !Object.prototype.hasOwnProperty.call(newVersions, channel)
    ) {
      keep(channel, prev, vals, channels);
      continue;
    }
    const { json, added, items } = encodeChannel(channel, values[channel], prev);
    // (a known extension is longer than the parent's value: no need to compare the texts)
    if (prev !== undefined && added === undefined && prev.json === json) {
      keep(channel, { ...prev, version }, vals, channels);
      continue;
    }
    if (json.length <= INLINE_MAX) {
      setVal(vals, channel, "=" + json);
      channels.set(channel, withItems({ version, json, owner: null, depth: 0, chain: 0, snap: 0 }, items));
      continue;
    }
    const blob = appendBlob(channel, json, added, prev) ?? {
      channel,
      kind: 0,
      base: null,
      data: json,
      depth: 0,
      chain: 0,
      snap: json.length,
    };
    if (blobs === undefined) blobs = [blob];
    else blobs.push(blob);
    setVal(vals, channel, "@");
    const head = { version, json, owner: id, depth: blob.depth, chain: blob.chain, snap: blob.snap };
    channels.set(channel, withItems(head, items));
  }
  const header: StoredHeader = {
    v: 1,
    ts: checkpoint.ts,
    cv: checkpoint.channel_versions,
    vs: checkpoint.versions_seen,
    vals,
  };
  return {
    header: JSON.stringify(header),
    metadata: encode(metadata, "checkpoint metadata"),
    blobs: blobs ?? NO_BLOBS,
    head: { id, channels },
  };
}

/**
 * A plain object (JSON.stringify's fast path; a null-prototype object is a slow dictionary), with
 * defineProperty for "__proto__", which an assignment would take as the prototype.
 */
function setVal(vals: Record<string, string>, channel: string, entry: string): void {
  if (channel === "__proto__") Object.defineProperty(vals, channel, { value: entry, enumerable: true, writable: true, configurable: true });
  else vals[channel] = entry;
}

function keep(channel: string, prev: ChannelHead, vals: Record<string, string>, channels: Map<string, ChannelHead>) {
  setVal(vals, channel, prev.owner === null ? "=" + prev.json : "@" + prev.owner);
  channels.set(channel, prev);
}

interface EncodedChannel {
  json: string;
  /** encoded array of the elements appended to the parent's value, when that is already known */
  added?: string;
  items?: unknown[];
}

/** Encodes one changed channel; an array that extends the parent's (same elements first) is encoded by its new part only. */
function encodeChannel(channel: string, value: unknown, prev: ChannelHead | undefined): EncodedChannel {
  if (!Array.isArray(value)) return { json: encodeValue(channel, value) };
  const items = value.slice();
  const old = prev?.items;
  if (old === undefined || old.length === 0 || value.length <= old.length) return { json: encodeValue(channel, value), items };
  for (let i = 0; i < old.length; i++) {
    if (!Object.is(old[i], value[i]) || !(i in value) !== !(i in old)) return { json: encodeValue(channel, value), items };
  }
  const tail = value.slice(old.length);
  const added = tryEncode(tail) ?? encode(tail, `channel "${channel}" (elements from index ${old.length} on)`);
  return { json: prev!.json.slice(0, -1) + "," + added.slice(1), added, items };
}

/** (the label is built only for the error) */
function encodeValue(channel: string, value: unknown): string {
  return tryEncode(value) ?? encode(value, `channel "${channel}"`);
}

function withItems(head: ChannelHead, items: unknown[] | undefined): ChannelHead {
  if (items !== undefined) head.items = items;
  return head;
}

/** An append row when `json` extends the parent's blob and the chain may grow; otherwise undefined. */
function appendBlob(channel: string, json: string, added: string | undefined, prev: ChannelHead | undefined): BlobRow | undefined {
  if (prev === undefined || prev.owner === null) return undefined;
  let data = added;
  if (data === undefined) {
    const base = prev.json;
    // base "[x…]" with at least one element; json continues it with ",": same first elements, more after
    if (base.length <= 2 || base.charCodeAt(0) !== 91 /* [ */ || json.length <= base.length) return undefined;
    if (json.charCodeAt(base.length - 1) !== 44 /* , */ || !json.startsWith(base.slice(0, -1))) return undefined;
    data = "[" + json.slice(base.length);
  }
  const chain = prev.chain + data.length;
  const depth = prev.depth + 1;
  if (chain > prev.snap || depth > MAX_DEPTH) return undefined;
  return { channel, kind: 1, base: prev.owner, data, depth, chain, snap: prev.snap };
}

export function parseHeader(text: string): StoredHeader {
  const header = JSON.parse(text) as StoredHeader;
  if (header.v !== 1 || typeof header.vals !== "object") {
    throw new CheckpointError("CORRUPT_CHECKPOINT", "Stored checkpoint header has an unknown layout.");
  }
  return header;
}

/** The blob references of the header of checkpoint `id`: [channel, owner checkpoint id]. */
export function blobRefs(id: string, header: StoredHeader): [channel: string, owner: string][] {
  const refs: [string, string][] = [];
  for (const channel of Object.keys(header.vals)) {
    const entry = header.vals[channel]!;
    if (entry.charCodeAt(0) === 64 /* @ */) refs.push([channel, ownerOf(id, entry)]);
  }
  return refs;
}

/** The owner named by a "@" entry of checkpoint `id`'s header. */
function ownerOf(id: string, entry: string): string {
  return entry.length === 1 ? id : entry.slice(1);
}

/** Rebuilds the encoded value from a chain of rows ordered from the full row to the newest append. */
export function joinChain(rows: readonly BlobRow[], channel: string): string {
  const first = rows[0];
  if (first === undefined || first.kind !== 0) {
    throw new CheckpointError("CORRUPT_CHECKPOINT", `Stored value of channel "${channel}" lost its base snapshot.`);
  }
  if (rows.length === 1) return first.data;
  const parts = [first.data.slice(0, -1)];
  for (let i = 1; i < rows.length; i++) parts.push(",", rows[i]!.data.slice(1, -1));
  parts.push("]");
  return parts.join("");
}

/** The encoded channel values of a stored checkpoint, in the header's order, plus its head for encoding children. */
export function readChannels(
  id: string,
  header: StoredHeader,
  chains: ReadonlyMap<string, readonly BlobRow[]>,
): Head {
  const channels = new Map<string, ChannelHead>();
  for (const channel of Object.keys(header.vals)) {
    const entry = header.vals[channel]!;
    const version = header.cv[channel];
    if (entry.charCodeAt(0) !== 64 /* @ */) {
      channels.set(channel, { version, json: entry.slice(1), owner: null, depth: 0, chain: 0, snap: 0 });
      continue;
    }
    const rows = chains.get(channel);
    const last = rows?.[rows.length - 1];
    if (rows === undefined || last === undefined) {
      throw new CheckpointError("CORRUPT_CHECKPOINT", `Checkpoint ${id} is missing the stored value of channel "${channel}".`);
    }
    channels.set(channel, {
      version,
      json: joinChain(rows, channel),
      owner: ownerOf(id, entry),
      depth: last.depth,
      chain: last.chain,
      snap: last.snap,
    });
  }
  return { id, channels };
}
