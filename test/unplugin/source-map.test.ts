/**
 * The composition of TypeScript's map with graphc's per-line origins (unplugin/source-map.ts), read back
 * with Node's own source-map reader.
 */
import { SourceMap } from "node:module";
import { describe, expect, it } from "vitest";
import { composeMappings } from "../../unplugin/source-map.ts";

// JS line 0 → TS line 0; JS line 1: column 0 → TS line 1, column 4 → TS line 2; JS line 2 → TS line 3
const TS_MAPPINGS = "AAAA;AACA,IACA;AACA";
const ORIGINS = [{ line: 5, column: 2 }, undefined, { line: 7, column: 0 }, { line: 5, column: 2 }];

const at = (mappings: string, line: number, column: number) => {
  const map = new SourceMap({ version: 3, file: "x.js", sourceRoot: "", sources: ["x.graph"], sourcesContent: [""], names: [], mappings });
  const e = map.findEntry(line, column) as { originalLine?: number; originalColumn?: number; generatedColumn?: number };
  return { line: e.originalLine, column: e.originalColumn, from: e.generatedColumn };
};

describe("composeMappings", () => {
  const mappings = composeMappings(TS_MAPPINGS, (tsLine) => ORIGINS[tsLine]);

  it("maps each JavaScript segment to the .graph origin of its TypeScript line", () => {
    expect(at(mappings, 0, 0)).toEqual({ line: 5, column: 2, from: 0 });
    expect(at(mappings, 1, 4)).toEqual({ line: 7, column: 0, from: 4 });
    expect(at(mappings, 2, 0)).toEqual({ line: 5, column: 2, from: 0 });
  });

  it("drops segments whose TypeScript line has no origin, and repeats of one origin on a line", () => {
    // line 1 keeps only its column-4 segment
    expect(mappings.split(";")[1]!.split(",")).toHaveLength(1);
    expect(composeMappings("AAAA,EAAE,EAAE", () => ({ line: 1, column: 1 })).split(",")).toHaveLength(1);
  });

  it("rejects a mappings string that is not base64 VLQ", () => {
    expect(() => composeMappings("AA!A", () => undefined)).toThrow("invalid base64 VLQ character");
  });
});
