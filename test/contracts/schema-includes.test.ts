/** Type inclusion over JSON Schemas (compiler/contracts/schema-includes.ts) and the small validator under it. */
import { describe, expect, it } from "vitest";
import { validate } from "../../compiler/contracts/json-validate.ts";
import { includes } from "../../compiler/contracts/schema-includes.ts";
import type { JsonSchema } from "../../compiler/schema/json-schema.ts";

const S = (schema: JsonSchema, root: JsonSchema = schema) => ({ schema, root });
const str: JsonSchema = { type: "string" };
const num: JsonSchema = { type: "number" };
const nullable: JsonSchema = { anyOf: [str, { type: "null" }] };
const sub = (a: JsonSchema, b: JsonSchema) => includes(S(a), S(b));

describe("includes(a, b): every value of a is a value of b", () => {
  it("primitives, unions and unknown", () => {
    expect(sub(str, str)).toBe(true);
    expect(sub(str, nullable)).toBe(true);
    expect(sub(nullable, str)).toBe(false);
    expect(sub(str, num)).toBe(false);
    expect(sub(num, {})).toBe(true);
    expect(sub({}, num)).toBe(false);
    expect(sub({ type: "integer" }, num)).toBe(true);
  });

  it("literals and enums", () => {
    expect(sub({ enum: ["a", "b"] }, { enum: ["a", "b", "c"] })).toBe(true);
    expect(sub({ enum: ["a", "b", "c"] }, { enum: ["a", "b"] })).toBe(false);
    expect(sub({ const: "a" }, str)).toBe(true);
    expect(sub(str, { enum: ["a"] })).toBe(false);
    expect(sub({ enum: [1, 2] }, { anyOf: [{ const: 1 }, { const: 2 }] })).toBe(true);
  });

  it("arrays and objects (required members, closed and open objects, records)", () => {
    expect(sub({ type: "array", items: str }, { type: "array", items: nullable })).toBe(true);
    expect(sub({ type: "array", items: nullable }, { type: "array", items: str })).toBe(false);
    const point = { type: "object", properties: { x: num, y: num }, required: ["x", "y"] };
    const loose = { type: "object", properties: { x: num, y: num }, required: ["x"] };
    expect(sub(point, loose)).toBe(true);
    expect(sub(loose, point)).toBe(false);
    const record = { type: "object", additionalProperties: num };
    expect(sub(record, { type: "object", additionalProperties: nullable })).toBe(false);
    expect(sub(record, { type: "object", additionalProperties: { anyOf: [num, str] } })).toBe(true);
    const closed = { ...point, additionalProperties: false };
    expect(sub(closed, point)).toBe(true);
    expect(sub(point, closed)).toBe(false);
  });

  it("follows $ref into each document's own $defs", () => {
    const a = { type: "object", properties: { level: { $ref: "#/$defs/Level" } }, $defs: { Level: { enum: [1, 2] } } };
    const b = { type: "object", properties: { level: { $ref: "#/$defs/Level" } }, $defs: { Level: { enum: [1, 2, 3] } } };
    expect(sub(a, b)).toBe(true);
    expect(sub(b, a)).toBe(false);
  });

  it("an opaque TypeScript type includes only itself", () => {
    const msg = { "x-typescript": "Message" };
    expect(sub(msg, { "x-typescript": "Message" })).toBe(true);
    expect(sub(msg, { "x-typescript": "Other" })).toBe(false);
    expect(sub({ const: "a" }, msg)).toBe(false);
    expect(sub(msg, { anyOf: [msg, { type: "null" }] })).toBe(true);
    expect(sub(msg, {})).toBe(true);
  });
});

describe("validate", () => {
  const schema: JsonSchema = {
    type: "object",
    properties: { name: { type: "string", pattern: "^[a-z]+$" }, tags: { type: "array", items: { $ref: "#/$defs/tag" } } },
    required: ["name"],
    additionalProperties: false,
    $defs: { tag: { enum: ["x", "y"] } },
  };

  it("accepts a valid value and reports each problem with its JSON pointer", () => {
    expect(validate({ name: "ok", tags: ["x"] }, schema)).toEqual([]);
    expect(validate({ tags: ["z"], extra: 1, name: "Bad" }, schema)).toEqual([
      { at: "/tags/0", message: 'expected one of ["x","y"]' },
      { at: "/extra", message: "property not allowed" },
      { at: "/name", message: "does not match ^[a-z]+$" },
    ]);
    expect(validate({}, schema)).toEqual([{ at: "/", message: "missing required property `name`" }]);
    expect(validate(3, schema)).toEqual([{ at: "/", message: "expected object, found number" }]);
  });

  it("rejects a schema keyword it does not implement instead of ignoring it", () => {
    expect(validate("a", { type: "string", minLength: 3 })).toEqual([{ at: "/", message: "schema keyword `minLength` is not supported" }]);
  });
});
