/**
 * The runtime's bundle shortens the internal property names listed in scripts/mangle-props.mjs. The list is
 * checked against the sources with the type checker: each name is only ever a member the runtime declares
 * for its own objects, so no user, saver or stored checkpoint can see the shortened name. The dist itself
 * runs the conformance cases in test/consumer/consumer.test.ts.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { tempDir } from "../temp-dir.ts";

interface Mangle {
  MANGLED: readonly string[];
  auditMangled(runtime: string, names?: readonly string[]): string[];
  checkMangled(dist: string): void;
}

const ROOT = join(import.meta.dirname, "..", "..");
const { MANGLED, auditMangled, checkMangled } = (await import(pathToFileURL(join(ROOT, "scripts", "mangle-props.mjs")).href)) as Mangle;
const RUNTIME = join(ROOT, "runtime");

describe("mangled property names", () => {
  it("every listed name is a member only the runtime's own objects have", () => {
    expect(MANGLED.length).toBeGreaterThan(100);
    expect(auditMangled(RUNTIME)).toEqual([]);
  });

  it("the audit refuses names that users, savers or stored data see", () => {
    const problems = auditMangled(RUNTIME, ["$writes", "cached", "response", "cpv", "startSpan", "length"]);
    const refused = (name: string) => problems.filter((p) => p.startsWith(`${name}: `));
    // a `tasks` stream result's key, written as a fresh object literal (results.ts)
    expect(refused("$writes").some((p) => p.includes("is a key its object's type does not declare"))).toBe(true);
    // `__metadata__: { cached: true }` in a `debug` event (stream-events.ts), though Task has a `cached` field
    expect(refused("cached").some((p) => p.includes("stream-events"))).toBe(true);
    // `err.response?.status` of a thrown error (policy.ts's retry default)
    expect(refused("response").some((p) => p.includes("is declared in a cast"))).toBe(true);
    // a stored delta blob's field, and the OpenTelemetry API
    expect(refused("cpv").some((p) => p.includes("is declared in checkpoint/delta"))).toBe(true);
    expect(refused("startSpan").some((p) => p.includes("is declared in tracing"))).toBe(true);
    expect(refused("length")).toContain("length: a built-in object has it");
  });

  it("the build refuses a published declaration that names a mangled property (a parameter name, a private member or a comment is no property)", () => {
    const tmp = tempDir("mangle-props");
    try {
      const dist = join(tmp.dir, "dist");
      mkdirSync(dist);
      writeFileSync(join(dist, "ok.d.ts"), "/** the run's site */\nexport function f(site: string, parent?: unknown): void;\n");
      writeFileSync(join(dist, "private.d.ts"), "export class Saver {\n\tprivate readonly heads;\n\tprivate putCheckpoint;\n}\n");
      expect(() => checkMangled(dist)).not.toThrow();
      writeFileSync(join(dist, "leak.d.ts"), "export interface Leak {\n\treadonly site: string;\n}\nexport type Key = \"parent\";\nexport class C {\n\tprotected heads: string;\n}\n");
      expect(() => checkMangled(dist)).toThrow(/site \(leak\.d\.ts\), parent \(leak\.d\.ts\), heads \(leak\.d\.ts\)/);
    } finally {
      tmp.remove();
    }
  });
});
