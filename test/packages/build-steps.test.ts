/**
 * The steps of scripts/build.mjs that rewrite the runtime's published declarations (shake-declarations.mjs)
 * and their maps (vlq.mjs), on a small package made for the test: what the exports reach stays, with its
 * declaration map still pointing at the source lines; the rest goes.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { tempDir } from "../temp-dir.ts";

type Segment = number[];
interface Vlq {
  decodeMappings(mappings: string): Segment[][];
  encodeMappings(lines: readonly Segment[][]): string;
}
interface Shake {
  shakeDeclarations(dist: string, entries: readonly string[]): void;
}

const SCRIPTS = join(import.meta.dirname, "..", "..", "scripts");
const load = async <T>(file: string) => (await import(pathToFileURL(join(SCRIPTS, file)).href)) as T;
const { decodeMappings, encodeMappings } = await load<Vlq>("vlq.mjs");
const { shakeDeclarations } = await load<Shake>("shake-declarations.mjs");

const tmp = tempDir("build-steps");
afterAll(() => tmp.remove());

/** writes `lines` as dist/<name>.d.ts with a map sending generated line i to source line i + 10 */
function declarations(dist: string, name: string, lines: readonly string[]): void {
  const text = [...lines, `//# sourceMappingURL=${name}.d.ts.map`].join("\n");
  writeFileSync(join(dist, `${name}.d.ts`), text);
  const mappings = encodeMappings(lines.map((line, i) => [[line.search(/\S/) < 0 ? 0 : line.search(/\S/), 0, i + 10, 0]]));
  writeFileSync(join(dist, `${name}.d.ts.map`), JSON.stringify({ version: 3, file: `${name}.d.ts`, sources: [`../${name}.ts`], mappings }));
}

describe("vlq", () => {
  it("decodes to absolute fields and encodes back to the same text", () => {
    // two lines; the second segment's source line and column are relative to the first's
    const mappings = "AAAA,EAAE;ACCA,IAAI";
    const lines = decodeMappings(mappings);
    expect(lines).toEqual([
      [
        [0, 0, 0, 0],
        [2, 0, 0, 2],
      ],
      [
        [0, 1, 1, 2],
        [4, 1, 1, 6],
      ],
    ]);
    expect(encodeMappings(lines)).toBe(mappings);
    // a dropped line leaves the next one's absolute fields as they were
    expect(decodeMappings(encodeMappings([lines[1]!]))).toEqual([lines[1]]);
  });
});

describe("shakeDeclarations", () => {
  const dist = join(tmp.dir, "dist");
  mkdirSync(dist);
  declarations(dist, "index", ['export { used, type Shape, Box } from "./lib.js";']);
  declarations(dist, "lib", [
    "/**",
    " * The module's notes for maintainers.",
    " */",
    'import type { Helper } from "./helper.js";',
    "/** Used by users. */",
    "export declare function used(shape: Shape): Helper;",
    "/** A shape. */",
    "export interface Shape {",
    "    readonly side: number;",
    "}",
    "/** Only the runtime's other modules call this. */",
    "export declare function internal(): void;",
    "export declare class Box {",
    "    /** why the box caches */",
    "    private cache;",
    "}",
  ]);
  declarations(dist, "helper", ["export type Helper = string;", "export type Unused = number;"]);
  declarations(dist, "orphan", ["export declare const nobody = 1;"]);
  shakeDeclarations(dist, [join(dist, "index.d.ts")]);
  const lib = readFileSync(join(dist, "lib.d.ts"), "utf8").split("\n");

  it("keeps what the exports reach through re-exports, imports and type references, without the comments no editor shows", () => {
    expect(lib).toEqual([
      'import type { Helper } from "./helper.js";',
      "/** Used by users. */",
      "export function used(shape: Shape): Helper;",
      "/** A shape. */",
      "export interface Shape {",
      "\treadonly side: number;",
      "}",
      "export class Box {",
      "\tprivate cache;",
      "}",
      "//# sourceMappingURL=lib.d.ts.map",
    ]);
    expect(readFileSync(join(dist, "helper.d.ts"), "utf8")).toBe("export type Helper = string;\n//# sourceMappingURL=helper.d.ts.map");
    expect(existsSync(join(dist, "orphan.d.ts"))).toBe(false);
    expect(existsSync(join(dist, "orphan.d.ts.map"))).toBe(false);
  });

  it("rewrites the declaration map to the lines and columns that remain", () => {
    const map = JSON.parse(readFileSync(join(dist, "lib.d.ts.map"), "utf8")) as { mappings: string };
    const lines = decodeMappings(map.mappings);
    expect(lines).toHaveLength(lib.length - 1);
    // source lines were the original line numbers + 10: the import was line 3, `Shape`'s member line 8
    expect(lines.map((segments) => segments[0]![2])).toEqual([13, 14, 15, 16, 17, 18, 19, 22, 24, 25]);
    // the member's column moved from 4 (spaces) to 1 (a tab)
    expect(lines[5]![0]![0]).toBe(1);
  });
});

describe("shakeDeclarations: private members", () => {
  const dist = join(tmp.dir, "dist-private");
  mkdirSync(dist);
  declarations(dist, "index", ['export { Saver, Graph } from "./lib.js";']);
  declarations(dist, "lib", [
    "export declare class Saver {",
    "    protected readonly store: string;",
    "    private readonly heads;",
    "    private head;",
    "}",
    "export declare class Graph {",
    "    private readonly noDefaults;",
    "    private missingCheckpointing;",
    "}",
  ]);
  shakeDeclarations(dist, [join(dist, "index.d.ts")]);

  it("drops those whose names the bundle mangles, but one per class that nothing else keeps nominal", () => {
    // `heads`, `noDefaults` and `missingCheckpointing` are on scripts/mangle-props.mjs, `head` is not
    expect(readFileSync(join(dist, "lib.d.ts"), "utf8").split("\n")).toEqual([
      "export class Saver {",
      "\tprotected readonly store: string;",
      "\tprivate head;",
      "}",
      "export class Graph {",
      "\tprivate readonly noDefaults;",
      "}",
      "//# sourceMappingURL=lib.d.ts.map",
    ]);
    const map = JSON.parse(readFileSync(join(dist, "lib.d.ts.map"), "utf8")) as { mappings: string };
    expect(decodeMappings(map.mappings).map((segments) => segments[0]![2])).toEqual([10, 11, 13, 14, 15, 16, 18]);
  });
});
