/**
 * One suite for every long-term Store (InMemoryStore, SqliteStore, PostgresStore): LangGraph's BaseStore
 * behaviour — namespaces, get/put/delete, search with filters, paging and vector ranking, listNamespaces,
 * TTL — and the errors graphc gives for bad input.
 */
import { afterAll, describe, expect, it, vi } from "vitest";
import type { IndexConfig, Store } from "@graphc/runtime";

export interface OpenedStore {
  store: Store;
  close(): Promise<void>;
}

/** A tiny deterministic embedding: counts of a few words, so similarity is predictable. */
const WORDS = ["refund", "shipping", "order", "cat", "dog"];
export const wordEmbed: IndexConfig["embed"] = (texts) =>
  texts.map((t) => WORDS.map((w) => t.toLowerCase().split(/\W+/).filter((x) => x === w).length));

export function storeConformance(name: string, open: (index?: IndexConfig) => Promise<OpenedStore>): void {
  describe(`${name}: Store conformance`, () => {
    const opened: OpenedStore[] = [];
    const fresh = async (index?: IndexConfig) => {
      const o = await open(index);
      opened.push(o);
      return o.store;
    };
    afterAll(async () => {
      for (const o of opened) await o.close();
    });

    it("put, get, overwrite and delete an item; createdAt stays, updatedAt moves", async () => {
      const s = await fresh();
      expect(await s.get(["users", "ada"], "prefs")).toBeNull();
      await s.put(["users", "ada"], "prefs", { theme: "dark", when: new Date(5) });
      const first = await s.get(["users", "ada"], "prefs");
      expect(first).toMatchObject({ namespace: ["users", "ada"], key: "prefs", value: { theme: "dark", when: new Date(5) } });
      expect(first!.createdAt).toBeInstanceOf(Date);
      await new Promise((r) => setTimeout(r, 5));
      await s.put(["users", "ada"], "prefs", { theme: "light" });
      const second = await s.get(["users", "ada"], "prefs");
      expect(second!.value).toEqual({ theme: "light" });
      expect(second!.createdAt.getTime()).toBe(first!.createdAt.getTime());
      expect(second!.updatedAt.getTime()).toBeGreaterThan(first!.updatedAt.getTime());
      // a read gives a copy: changing it does not change the store
      second!.value["theme"] = "changed";
      expect((await s.get(["users", "ada"], "prefs"))!.value).toEqual({ theme: "light" });
      await s.delete(["users", "ada"], "prefs");
      expect(await s.get(["users", "ada"], "prefs")).toBeNull();
      await s.delete(["users", "ada"], "never-there");
    });

    it("search by namespace prefix with filters and paging, in (namespace, key) order", async () => {
      const s = await fresh();
      await s.put(["orders", "ada"], "o2", { status: "open", total: 30 });
      await s.put(["orders", "ada"], "o1", { status: "shipped", total: 10 });
      await s.put(["orders", "bob"], "o3", { status: "open", total: 20 });
      await s.put(["orders_archive", "ada"], "o9", { status: "open", total: 99 });
      await s.put(["profiles", "ada"], "p", { name: "Ada" });
      const keys = async (p: string[], o?: Parameters<Store["search"]>[1]) => (await s.search(p, o)).map((i) => i.key);
      expect(await keys(["orders"])).toEqual(["o1", "o2", "o3"]);
      expect(await keys(["orders", "ada"])).toEqual(["o1", "o2"]);
      expect(await keys([])).toEqual(["o1", "o2", "o3", "o9", "p"]);
      expect(await keys(["orders"], { filter: { status: "open" } })).toEqual(["o2", "o3"]);
      expect(await keys(["orders"], { filter: { total: { $gte: 20 }, status: { $ne: "shipped" } } })).toEqual(["o2", "o3"]);
      expect(await keys(["orders"], { filter: { total: { $lt: 20 } } })).toEqual(["o1"]);
      expect(await keys(["orders"], { limit: 2, offset: 1 })).toEqual(["o2", "o3"]);
      expect(await keys(["orders"], { filter: { missing: "x" } })).toEqual([]);
    });

    it("lists namespaces with prefix, suffix, maxDepth and paging", async () => {
      const s = await fresh();
      await s.put(["a", "b", "c"], "k", { v: 1 });
      await s.put(["a", "b", "d"], "k", { v: 1 });
      await s.put(["a", "x"], "k", { v: 1 });
      await s.put(["z"], "k", { v: 1 });
      expect(await s.listNamespaces()).toEqual([["a", "b", "c"], ["a", "b", "d"], ["a", "x"], ["z"]]);
      expect(await s.listNamespaces({ prefix: ["a", "b"] })).toEqual([["a", "b", "c"], ["a", "b", "d"]]);
      expect(await s.listNamespaces({ suffix: ["d"] })).toEqual([["a", "b", "d"]]);
      expect(await s.listNamespaces({ maxDepth: 2 })).toEqual([["a", "b"], ["a", "x"], ["z"]]);
      expect(await s.listNamespaces({ limit: 2, offset: 1 })).toEqual([["a", "b", "d"], ["a", "x"]]);
    });

    it("an item with a TTL disappears once it expires (get, search, listNamespaces)", async () => {
      const s = await fresh();
      const t0 = Date.now();
      const now = vi.spyOn(Date, "now");
      try {
        now.mockReturnValue(t0);
        await s.put(["tmp"], "short", { v: 1 }, undefined, { ttl: 60 });
        await s.put(["keep"], "long", { v: 2 });
        expect((await s.get(["tmp"], "short"))!.value).toEqual({ v: 1 });
        now.mockReturnValue(t0 + 61_000);
        expect(await s.get(["tmp"], "short")).toBeNull();
        expect(await s.search(["tmp"])).toEqual([]);
        expect(await s.listNamespaces()).toEqual([["keep"]]);
      } finally {
        now.mockRestore();
      }
    });

    it("ranks a query by cosine similarity of the embedded fields; unindexed items come last", async () => {
      const s = await fresh({ embed: wordEmbed, fields: ["text"] });
      await s.put(["docs"], "ship", { text: "shipping shipping order" });
      await s.put(["docs"], "refund", { text: "refund order refund" });
      await s.put(["docs"], "pets", { text: "cat dog" });
      await s.put(["docs"], "raw", { text: "refund" }, false);
      const hits = await s.search(["docs"], { query: "refund order", limit: 4 });
      expect(hits.map((h) => h.key)).toEqual(["refund", "ship", "pets", "raw"]);
      expect(hits[0]!.score).toBeCloseTo(3 / Math.sqrt(10), 6);
      expect(hits[1]!.score).toBeCloseTo(1 / Math.sqrt(10), 6);
      expect(hits[2]!.score).toBe(0);
      expect(hits[3]!.score).toBeUndefined();
      // filters still apply, and the index can be chosen per item
      await s.put(["docs"], "title-only", { text: "cat", title: "refund refund" }, ["title"]);
      const filtered = await s.search(["docs"], { query: "refund order", filter: { text: "cat" } });
      expect(filtered.map((h) => h.key)).toEqual(["title-only"]);
      expect(filtered[0]!.score).toBeCloseTo(1 / Math.sqrt(2), 6);
    });

    it("rejects bad namespaces, keys, values and options with a StoreError naming the field", async () => {
      const s = await fresh();
      const bad = async (p: Promise<unknown>, code: string, field: string) => expect(p).rejects.toMatchObject({ code, field });
      await bad(s.put([], "k", { v: 1 }), "INVALID_NAMESPACE", "namespace");
      await bad(s.put(["a.b"], "k", { v: 1 }), "INVALID_NAMESPACE", "namespace");
      await bad(s.put([""], "k", { v: 1 }), "INVALID_NAMESPACE", "namespace");
      await bad(s.put(["langgraph"], "k", { v: 1 }), "INVALID_NAMESPACE", "namespace");
      await bad(s.put(["a", 5 as never], "k", { v: 1 }), "INVALID_NAMESPACE", "namespace");
      await bad(s.put(["a"], "", { v: 1 }), "INVALID_STORE_VALUE", "key");
      await bad(s.put(["a"], "k", [1] as never), "INVALID_STORE_VALUE", "value");
      await bad(s.put(["a"], "k", { f: () => 1 }), "INVALID_STORE_VALUE", "value");
      await bad(s.put(["a"], "k", { v: 1 }, undefined, { ttl: -1 }), "INVALID_STORE_OPTION", "ttl");
      await bad(s.search(["a"], { limit: -1 }), "INVALID_STORE_OPTION", "limit");
      await bad(s.search(["a"], { filter: { v: { $like: 1 } } }), "INVALID_STORE_OPTION", "filter");
      await expect(s.search(["a"], { filter: { v: { $like: 1 } } })).rejects.toThrow("Unknown filter operator $like");
    });
  });
}
