/**
 * A checkpoint's own blobs (the channels it changed, delta.ts) in its row of `graphc_checkpoints`, so that a
 * superstep's commit changes one B-tree (the checkpoints table) instead of two (docs/checkpoints.md, "SQLite
 * layout 2"). Blobs are records in the row's `blobs` column while they fit in ROW_BLOB_CHARS; a longer one
 * is a `graphc_blobs` row as before (its pages are written once either way, and the row, rewritten by every
 * pending-write record appended to it, stays short). Readers look in the row first, then in `graphc_blobs`.
 *
 *   record := "b" <channel length> "," <kind> "," <depth> "," <chain> "," <snap> "," <base length, -1: none>
 *             "," <data length> ":" <channel> <base> <data>
 *
 * Lengths are UTF-16 lengths.
 */
import { type BlobRow, CorruptCheckpointError, MAX_DEPTH } from "@graphc/runtime/saver";
import { RecordReader } from "./records.ts";

/** Characters of blob records kept in a checkpoint's row (with its pending writes, a row of about one B-tree cell). */
export const ROW_BLOB_CHARS = 1024;

/** The records of the blobs that go in the row (in order, while they fit), and the blobs that do not. */
export interface SplitBlobs {
  records: string;
  rest: BlobRow[];
}

export function splitBlobs(blobs: readonly BlobRow[]): SplitBlobs {
  let records = "";
  const rest: BlobRow[] = [];
  for (const b of blobs) {
    const record = blobRecord(b);
    if (records.length + record.length <= ROW_BLOB_CHARS) records += record;
    else rest.push(b);
  }
  return { records, rest };
}

export function blobRecord(b: BlobRow): string {
  const base = b.base ?? "";
  return (
    "b" + b.channel.length + "," + b.kind + "," + b.depth + "," + b.chain + "," + b.snap + "," +
    (b.base === null ? -1 : base.length) + "," + b.data.length + ":" + b.channel + base + b.data
  );
}

/** Where a row's records are stored (the owner of the blobs) and the channel being read, for errors. */
export interface BlobSite {
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string;
  channel?: string;
}

/** The blobs of one row by channel; records that do not parse are CORRUPT_CHECKPOINT naming the row. */
export function readBlobRecords(site: BlobSite, text: unknown): Map<string, BlobRow> {
  const out = new Map<string, BlobRow>();
  if (text === "") return out;
  const damaged = (problem: string) =>
    new CorruptCheckpointError(site, `the blobs stored in the row of checkpoint ${JSON.stringify(site.checkpoint_id)} ${problem}`);
  if (typeof text !== "string") throw damaged(`are ${text === null ? "null" : typeof text}, not text`);
  const r = new RecordReader(text, damaged);
  while (!r.done) {
    if (r.tag() !== "b") throw r.fail("expected a record", r.at - 1);
    const channelLength = r.int(",");
    const kind = r.int(",") as BlobRow["kind"];
    const depth = r.int(",");
    const chain = r.int(",");
    const snap = r.int(",");
    const baseLength = r.int(",");
    const dataLength = r.int(":");
    const channel = r.take(channelLength);
    const base = baseLength === -1 ? null : r.take(baseLength);
    out.set(channel, { channel, kind, base, data: r.take(dataLength), depth, chain, snap });
  }
  return out;
}

/**
 * The blob of `channel` owned by `owner`, then the blobs it extends, down to the full one, oldest first (as
 * StoredSaver's `chains` returns them); `find` gives the blob of a checkpoint. At most one row past the
 * longest chain the encoder writes, so a loop of `base`s ends (delta.ts's checkChain reports it).
 */
export function walkChain(owner: string, find: (id: string) => BlobRow | undefined): BlobRow[] {
  const chain: BlobRow[] = [];
  let id: string | null = owner;
  while (id !== null && chain.length <= MAX_DEPTH + 1) {
    const blob = find(id);
    if (blob === undefined) break;
    chain.push(blob);
    id = blob.kind === 1 ? blob.base : null;
  }
  return chain.reverse();
}
