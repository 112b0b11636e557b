/**
 * Moves blobs between the two places SQLite's layout 2 keeps them (checkpoint-sqlite/row-blobs.ts): records
 * in their checkpoint's row, and `graphc_blobs` rows (blobs too long for the row, and every blob of a file
 * converted from layout 1). Readers look in both, so a test can damage blobs with plain SQL on
 * `graphc_blobs` and then put them back in the rows, and check either placement.
 */
import type Database from "better-sqlite3";
import type { BlobRow } from "../../runtime/checkpoint/delta.ts";
import { blobRecord, readBlobRecords } from "../../checkpoint-sqlite/row-blobs.ts";

type DB = Database.Database;

interface Key {
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string;
}

/** Every blob stored in the rows' records, with its checkpoint. */
function rowBlobs(db: DB): (Key & BlobRow)[] {
  const rows = db.prepare("SELECT thread_id, checkpoint_ns, checkpoint_id, blobs FROM graphc_checkpoints").all() as (Key & { blobs: string })[];
  return rows.flatMap(({ blobs, ...key }) => [...readBlobRecords(key, blobs).values()].map((b) => ({ ...key, ...b })));
}

/** Every blob, in the rows or in graphc_blobs, with where it is. */
export function allBlobs(db: DB): (Key & BlobRow & { place: "row" | "table" })[] {
  const table = db.prepare("SELECT * FROM graphc_blobs").all() as (Key & BlobRow)[];
  return [...rowBlobs(db).map((b) => ({ ...b, place: "row" as const })), ...table.map((b) => ({ ...b, place: "table" as const }))];
}

/** The rows' records become graphc_blobs rows (as a long blob is stored). */
export function blobsToTable(db: DB): void {
  const insert = db.prepare(
    `INSERT INTO graphc_blobs (thread_id, checkpoint_ns, checkpoint_id, channel, kind, base, data, depth, chain, snap)
     VALUES (@thread_id, @checkpoint_ns, @checkpoint_id, @channel, @kind, @base, @data, @depth, @chain, @snap)`,
  );
  db.transaction(() => {
    for (const b of rowBlobs(db)) insert.run(b);
    db.exec("UPDATE graphc_checkpoints SET blobs = ''");
  })();
}

/** graphc_blobs rows whose checkpoint row is stored and whose fields a record can hold become records in that row. */
export function blobsToRows(db: DB): void {
  const rows = db.prepare("SELECT * FROM graphc_blobs").all() as (Key & BlobRow)[];
  const append = db.prepare(
    "UPDATE graphc_checkpoints SET blobs = blobs || ? WHERE thread_id = ? AND checkpoint_ns = ? AND checkpoint_id = ?",
  );
  const remove = db.prepare("DELETE FROM graphc_blobs WHERE thread_id = ? AND checkpoint_ns = ? AND checkpoint_id = ? AND channel = ?");
  db.transaction(() => {
    for (const b of rows) {
      if (typeof b.data !== "string" || !Number.isInteger(b.kind) || (b.base !== null && typeof b.base !== "string")) continue;
      if (append.run(blobRecord(b), b.thread_id, b.checkpoint_ns, b.checkpoint_id).changes === 1) {
        remove.run(b.thread_id, b.checkpoint_ns, b.checkpoint_id, b.channel);
      }
    }
  })();
}
