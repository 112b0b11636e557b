/**
 * The business database of the customer-service sample: orders, logistics, the refund policy, refunds,
 * hand-off tickets, idempotency keys and the audit log, in a real SQLite file (better-sqlite3).
 * Conversation state is NOT here: the graph's checkpoints live in their own file (see conversation.ts).
 *
 * Nodes reach the database through the `dbPath` var; `openDb` keeps one connection per path per process.
 */
import Database from "better-sqlite3";
import { mkdirSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import { fileURLToPath } from "node:url";

export type Db = Database.Database;

/** where relative `dbPath` values live: samples/customer-service/data/ (git-ignored) */
export const DATA_DIR = join(dirname(fileURLToPath(import.meta.url)), "data");

export function resolveDbPath(dbPath: string): string {
  return dbPath === ":memory:" || isAbsolute(dbPath) ? dbPath : join(DATA_DIR, dbPath);
}

/** the resolved path of a database file, its directory created (SQLite does not create directories) */
export function dataFile(dbPath: string): string {
  const path = resolveDbPath(dbPath);
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  return path;
}

const open = new Map<string, Db>();

/** The connection for `dbPath`, created (schema + demo data) on first use. */
export function openDb(dbPath: string): Db {
  const path = resolveDbPath(dbPath);
  let db = open.get(path);
  if (db === undefined) {
    db = new Database(dataFile(path));
    db.pragma("journal_mode = WAL");
    db.pragma("foreign_keys = ON");
    createSchema(db);
    if ((db.prepare("SELECT count(*) AS n FROM orders").get() as { n: number }).n === 0) seedDemoData(db);
    open.set(path, db);
  }
  return db;
}

export function closeDb(dbPath: string): void {
  const path = resolveDbPath(dbPath);
  open.get(path)?.close();
  open.delete(path);
}

function createSchema(db: Db): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS orders (
      id           TEXT PRIMARY KEY,
      user_id      TEXT NOT NULL,
      status       TEXT NOT NULL,          -- paid | shipped | delivered | refunded
      total        REAL NOT NULL,
      items        TEXT NOT NULL,          -- JSON array of item names
      delivered_at TEXT                    -- ISO time, null until delivered
    );
    CREATE TABLE IF NOT EXISTS logistics (
      order_id          TEXT PRIMARY KEY REFERENCES orders(id),
      state             TEXT NOT NULL,
      carrier           TEXT NOT NULL,
      estimated_arrival TEXT,
      fail_next         INTEGER NOT NULL DEFAULT 0  -- simulated carrier outages: calls that fail before one succeeds
    );
    CREATE TABLE IF NOT EXISTS refund_policy (
      id          INTEGER PRIMARY KEY CHECK (id = 1),
      window_days INTEGER NOT NULL,
      text        TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS refunds (
      id              TEXT PRIMARY KEY,
      order_id        TEXT NOT NULL REFERENCES orders(id),
      amount          REAL NOT NULL,
      idempotency_key TEXT NOT NULL UNIQUE,
      approved_by     TEXT NOT NULL,
      created_at      TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS handoffs (
      id         INTEGER PRIMARY KEY AUTOINCREMENT,
      user_id    TEXT NOT NULL,
      intent     TEXT NOT NULL,
      order_id   TEXT,
      created_at TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS idempotency_keys (
      key        TEXT PRIMARY KEY,
      result     TEXT NOT NULL,            -- JSON of the first execution result
      created_at TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS audit_log (
      id              INTEGER PRIMARY KEY AUTOINCREMENT,
      at              TEXT NOT NULL,
      actor           TEXT NOT NULL,       -- user:<id> for self-service, human:<name> after a confirmation, system
      action          TEXT NOT NULL,
      entity          TEXT NOT NULL,
      entity_id       TEXT NOT NULL,
      idempotency_key TEXT,
      before          TEXT,                -- JSON row before the write (null for an insert)
      after           TEXT                 -- JSON row after the write
    );
  `);
}

const DAY = 24 * 60 * 60 * 1000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString();
const daysAhead = (n: number) => new Date(Date.now() + n * DAY).toISOString().slice(0, 10);

/** Demo data: user u1001's orders (ids and amounts are what the scripted conversation refers to). */
export function seedDemoData(db: Db): void {
  const order = db.prepare(
    "INSERT INTO orders (id, user_id, status, total, items, delivered_at) VALUES (?, ?, ?, ?, ?, ?)",
  );
  const logistics = db.prepare(
    "INSERT INTO logistics (order_id, state, carrier, estimated_arrival, fail_next) VALUES (?, ?, ?, ?, ?)",
  );
  db.transaction(() => {
    order.run("ORD1001", "u1001", "delivered", 199, JSON.stringify(["蓝牙耳机"]), daysAgo(5));
    order.run("ORD1002", "u1001", "delivered", 89, JSON.stringify(["手机壳"]), daysAgo(2));
    order.run("ORD1003", "u1001", "delivered", 1299, JSON.stringify(["机械键盘", "显示器支架"]), daysAgo(3));
    order.run("ORD1004", "u1001", "shipped", 59, JSON.stringify(["数据线"]), null);
    order.run("ORD1005", "u1001", "delivered", 320, JSON.stringify(["运动鞋"]), daysAgo(20));
    order.run("ORD1006", "u1001", "shipped", 45, JSON.stringify(["台灯"]), null);
    logistics.run("ORD1001", "已签收", "顺丰", null, 0);
    logistics.run("ORD1002", "已签收", "中通", null, 0);
    logistics.run("ORD1003", "已签收", "京东物流", null, 0);
    // the carrier's API fails once for ORD1004: the query subgraph's retry policy absorbs it
    logistics.run("ORD1004", "运输中，已到达上海转运中心", "圆通", daysAhead(2), 1);
    logistics.run("ORD1005", "已签收", "顺丰", null, 0);
    // ...and keeps failing for ORD1006: after 3 attempts the query returns an `error` result
    logistics.run("ORD1006", "运输中", "韵达", daysAhead(3), 99);
    db.prepare("INSERT INTO refund_policy (id, window_days, text) VALUES (1, 7, ?)").run(
      "签收后 7 天内可申请无理由退款；超过 500 元的退款需人工确认。",
    );
  })();
}

// ------------------------------------------------------------------ audit log and idempotency keys

export interface AuditEntry {
  actor: string;
  action: string;
  entity: string;
  entity_id: string;
  idempotency_key?: string;
  before: unknown;
  after: unknown;
}

export function audit(db: Db, entry: AuditEntry): void {
  db.prepare(
    `INSERT INTO audit_log (at, actor, action, entity, entity_id, idempotency_key, before, after)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    new Date().toISOString(),
    entry.actor,
    entry.action,
    entry.entity,
    entry.entity_id,
    entry.idempotency_key ?? null,
    entry.before === null || entry.before === undefined ? null : JSON.stringify(entry.before),
    entry.after === null || entry.after === undefined ? null : JSON.stringify(entry.after),
  );
}

export interface AuditRow {
  id: number;
  at: string;
  actor: string;
  action: string;
  entity: string;
  entity_id: string;
  idempotency_key: string | null;
  before: string | null;
  after: string | null;
}

export function auditRows(db: Db): AuditRow[] {
  return db.prepare("SELECT * FROM audit_log ORDER BY id").all() as AuditRow[];
}

/** the stored first result for an idempotency key, if the operation already ran */
export function recordedResult<T>(db: Db, key: string): T | undefined {
  const row = db.prepare("SELECT result FROM idempotency_keys WHERE key = ?").get(key) as
    { result: string } | undefined;
  return row === undefined ? undefined : (JSON.parse(row.result) as T);
}

export function recordResult(db: Db, key: string, result: unknown): void {
  db.prepare("INSERT INTO idempotency_keys (key, result, created_at) VALUES (?, ?, ?)").run(
    key,
    JSON.stringify(result),
    new Date().toISOString(),
  );
}
