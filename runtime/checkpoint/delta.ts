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
import type { Checkpoint } from "./types.ts";
import { CorruptCheckpointError, excerpt, parseStored, typeName } from "./corrupt.ts";
import { encode, tryEncode } from "./serde.ts";
import { defineField, isRecord } from "../objects.ts";

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
   * The elements of the value when it is an array: its first `count` entries (a shallow copy: the caller may
   * reuse its array). A child whose first elements are these same values (`Object.is`) extends it: only the
   * new elements are encoded. Stored values are taken as immutable, as for unchanged channels: an object
   * changed in place after it was handed to the saver is not re-read (the runtime's reducers always build
   * new objects).
   *
   * The copy is the saver's own, so the first child that extends it pushes its new elements onto it instead
   * of copying the whole list again (a list appended to every step would cost O(N²) copies per thread);
   * entries below a head's `count` never change, and a second child of the same head (a fork) copies.
   */
  items?: unknown[];
  count?: number;
  /**
   * For an array that extended its parent's: its text without the closing "]", kept as the concatenation it
   * was built as. A child appends to it, where `json.slice(0, -1)` would copy the whole text (V8 flattens a
   * concatenated string before slicing it): O(N) per step for a list of N elements. The text is sliced (one
   * copy) again at a full blob and every 64 appends after it, so a head holds at most 64 pieces (~100 B
   * each) and a long list costs a 64th of a copy per step. A text under 4,000 characters is sliced every
   * time: the copy is cheap, and its pieces would take more memory than the text.
   */
  open?: string | undefined;
}

/** A stored checkpoint as seen by the encoder of its children. */
export interface Head {
  id: string;
  channels: Map<string, ChannelHead>;
}

/** The parsed header of a stored checkpoint. */
export interface StoredHeader {
  /** the layout of this header (graphc's storage format) */
  v: 1;
  /** the checkpoint's own format version (`Checkpoint.v`); absent in headers written before it was kept: 4 */
  cpv?: number | undefined;
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
  blobs: readonly BlobRow[];
  head: Head;
}

/**
 * Lays out `checkpoint` against its parent (its metadata is the saver's: see stored-saver.ts). `parent` must
 * be the stored checkpoint named by the put config's `checkpoint_id` (or undefined: everything is stored in
 * full).
 */
export function encodeCheckpoint(
  checkpoint: Checkpoint,
  newVersions: Record<string, number>,
  parent: Head | undefined,
  /** checkpoint.id, as the saver keeps it (see stored-saver.ts flatText) */
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
      !Object.hasOwn(newVersions, channel)
    ) {
      keep(channel, prev, vals, channels);
      continue;
    }
    const encoded = encodeChannel(channel, values[channel], prev);
    const { json, added } = encoded;
    // (a known extension is longer than the parent's value: no need to compare the texts)
    if (prev !== undefined && added === undefined && prev.json === json) {
      keep(channel, { ...prev, version }, vals, channels);
      continue;
    }
    if (json.length <= INLINE_MAX) {
      setVal(vals, channel, "=" + json);
      channels.set(channel, withArray({ version, json, owner: null, depth: 0, chain: 0, snap: 0 }, encoded));
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
    channels.set(channel, withArray(head, encoded));
  }
  const header: StoredHeader = {
    v: 1,
    // undefined is left out of the text (no spread of a temporary object per checkpoint)
    cpv: checkpoint.v !== 4 ? checkpoint.v : undefined,
    ts: checkpoint.ts,
    cv: checkpoint.channel_versions,
    vs: checkpoint.versions_seen,
    vals,
  };
  return {
    header: JSON.stringify(header),
    blobs: blobs ?? NO_BLOBS,
    head: { id, channels },
  };
}

/**
 * A plain object (JSON.stringify's fast path; a null-prototype object is a slow dictionary), with
 * defineProperty for "__proto__", which an assignment would take as the prototype.
 */
function setVal(vals: Record<string, string>, channel: string, entry: string): void {
  if (channel === "__proto__") defineField(vals, channel, entry);
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
  /** for an array value: its elements (ChannelHead.items), exactly value.length of them */
  items?: unknown[];
  /** for an extension: ChannelHead.open */
  open?: string;
}

/** Encodes one changed channel; an array that extends the parent's (same elements first) is encoded by its new part only. */
function encodeChannel(channel: string, value: unknown, prev: ChannelHead | undefined): EncodedChannel {
  if (!Array.isArray(value)) return { json: encodeValue(channel, value) };
  const old = prev?.items;
  const k = prev?.count ?? 0;
  if (old === undefined || k === 0 || value.length <= k) return { json: encodeValue(channel, value), items: value.slice() };
  for (let i = 0; i < k; i++) {
    if (!Object.is(old[i], value[i]) || !(i in value) !== !(i in old)) {
      return { json: encodeValue(channel, value), items: value.slice() };
    }
  }
  const tail = value.slice(k);
  const added = tryEncode(tail) ?? encode(tail, `channel "${channel}" (elements from index ${k} on)`);
  // the parent's copy grows in place unless another child already extended it (then: a copy of its part)
  const items = old.length === k ? old : old.slice(0, k);
  // (a hole becomes undefined here: a later child with a hole there fails the prefix test and is stored in full)
  for (let i = k; i < value.length; i++) items.push(value[i]);
  // (a head's depth counts the appends since its chain's full blob)
  const open = (prev!.open !== undefined && prev!.depth % 64 && prev!.json.length > 4e3 ? prev!.open : prev!.json.slice(0, -1)) + "," + added.slice(1, -1);
  return { json: open + "]", added, items, open };
}

/** (the label is built only for the error) */
function encodeValue(channel: string, value: unknown): string {
  return tryEncode(value) ?? encode(value, `channel "${channel}"`);
}

function withArray(head: ChannelHead, { items, open }: EncodedChannel): ChannelHead {
  if (items !== undefined) {
    head.items = items;
    head.count = items.length;
    head.open = open;
  }
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

/** Where a stored checkpoint lives: what a corrupt-data error names. */
export interface StoredSite {
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string;
}

/**
 * Parses and checks a stored header: every field the reader uses must be there with its type, so that damage
 * is reported here, naming the checkpoint, rather than as a TypeError (or a silent NaN) further on.
 */
export function parseHeader(text: unknown, site: StoredSite): StoredHeader {
  const header = parseStored(text, site, "header");
  if (!isRecord(header) || header.v !== 1) {
    throw new CorruptCheckpointError(site, `header has an unknown layout (expected {"v":1,…}, got ${excerpt(String(text))})`);
  }
  if (header.cpv !== undefined && typeof header.cpv !== "number") throw new CorruptCheckpointError(site, `header field "cpv" is ${typeName(header.cpv)}, not a number`);
  if (typeof header.ts !== "string") throw new CorruptCheckpointError(site, `header field "ts" is ${typeName(header.ts)}, not a string`);
  for (const field of ["cv", "vs", "vals"] as const) {
    if (!isRecord(header[field])) throw new CorruptCheckpointError(site, `header field "${field}" is ${typeName(header[field])}, not an object`);
  }
  const vals = header.vals as Record<string, unknown>;
  for (const channel of Object.keys(vals)) {
    const entry = vals[channel];
    const mark = typeof entry === "string" ? entry.charCodeAt(0) : NaN;
    if (mark !== 61 /* = */ && mark !== 64 /* @ */) {
      const got = typeof entry === "string" ? excerpt(entry) : typeName(entry);
      throw new CorruptCheckpointError({ ...site, channel }, `header entry is ${got}, not "=<value>" or "@<checkpoint id>"`);
    }
  }
  return header as unknown as StoredHeader;
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

/**
 * Rebuilds the encoded value from a chain of rows ordered from the full row to the newest append, the
 * newest being `owner`'s blob. The chain is checked first (see checkChain).
 */
export function joinChain(rows: readonly BlobRow[], site: StoredSite & { channel: string }, owner: string): string {
  checkChain(rows, site, owner);
  const first = rows[0]!;
  if (rows.length === 1) return first.data;
  const parts = [first.data.slice(0, -1)];
  for (let i = 1; i < rows.length; i++) parts.push(",", rows[i]!.data.slice(1, -1));
  parts.push("]");
  return parts.join("");
}

/**
 * A chain read back must be one the encoder can have written: no checkpoint twice (a `base` pointing at its
 * own row, or a loop), at most MAX_DEPTH + 1 rows (the stores stop their walk one row past that bound, so a
 * loop or an over-long chain ends the query instead of running for ever), a full row first, appends after
 * it, and, when there are appends, array text in every row. The checkpoint holding each row is known from
 * the `base` of the row after it, so no id column is needed.
 */
function checkChain(rows: readonly BlobRow[], site: StoredSite & { channel: string }, owner: string): void {
  const seen = new Set<string>();
  let id = owner;
  let prev = owner;
  const bad = (problem: string) => new CorruptCheckpointError(site, `the blob of checkpoint ${JSON.stringify(id)} ${problem}`);
  for (let i = rows.length - 1; i >= 0; i--) {
    const row = rows[i]!;
    if (seen.has(id)) {
      throw new CorruptCheckpointError(
        site,
        `the delta chain of the stored value loops: the blob of checkpoint ${JSON.stringify(prev)} extends ` +
          (prev === id ? "itself" : `the blob of checkpoint ${JSON.stringify(id)}, which is already in its chain`),
      );
    }
    seen.add(id);
    if (row.kind !== 0 && row.kind !== 1) throw bad(`has kind ${JSON.stringify(row.kind)}, not 0 (full) or 1 (append)`);
    if (typeof row.data !== "string") throw bad(`holds ${typeName(row.data)}, not text`);
    if (rows.length > 1 && !isArrayText(row.data)) throw bad(`holds ${excerpt(row.data)}, not the non-empty array text a delta chain is made of`);
    if (i === 0) break;
    if (row.kind !== 1 || typeof row.base !== "string") throw bad("is not an append row, yet the chain goes on past it");
    prev = id;
    id = row.base;
  }
  if (rows.length > MAX_DEPTH + 1) {
    throw new CorruptCheckpointError(site, `the delta chain of the stored value is longer than its bound of ${MAX_DEPTH + 1} rows`);
  }
  const first = rows[0]!;
  if (first.kind !== 0) {
    throw bad(
      first.base === null
        ? "is an append row without a base: the chain lost its full snapshot"
        : `extends checkpoint ${JSON.stringify(first.base)}, which has no blob of this channel: the chain lost its full snapshot`,
    );
  }
}

/** "[…]" with at least one element (the encoder never writes an empty append, nor extends an empty array). */
function isArrayText(data: string): boolean {
  return data.length > 2 && data.charCodeAt(0) === 91 /* [ */ && data.charCodeAt(data.length - 1) === 93 /* ] */;
}

/** The encoded channel values of a stored checkpoint, in the header's order, plus its head for encoding children. */
export function readChannels(
  site: StoredSite,
  header: StoredHeader,
  chains: ReadonlyMap<string, readonly BlobRow[]>,
): Head {
  const id = site.checkpoint_id;
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
      const owner = ownerOf(id, entry);
      throw new CorruptCheckpointError({ ...site, channel }, `the header refers to the blob of checkpoint ${JSON.stringify(owner)}, which is not stored`);
    }
    const owner = ownerOf(id, entry);
    channels.set(channel, {
      version,
      json: joinChain(rows, { ...site, channel }, owner),
      owner,
      depth: last.depth,
      chain: last.chain,
      snap: last.snap,
    });
  }
  return { id, channels };
}
