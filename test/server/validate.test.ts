/**
 * The run-input check (server/validate.ts) on schemas of the shape graphc generates: closed top-level
 * objects, required inputs, `$defs` references, enums of literal unions, `anyOf`, opaque TypeScript types.
 * The first mismatch is reported with its path, which the API turns into a 422 naming the field.
 */
import { describe, expect, it } from "vitest";
import { validate } from "../../server/validate.ts";

const schema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: {
    user_id: { type: "string" },
    messages: { type: "array", items: { "x-typescript": "Message" } },
    intent: { $ref: "#/$defs/Intent" },
    order: { $ref: "#/$defs/Order" },
    limit: { anyOf: [{ type: "number" }, { type: "null" }] },
    tags: { type: "object", additionalProperties: { type: "boolean" } },
  },
  required: ["user_id"],
  additionalProperties: false,
  $defs: {
    Intent: { enum: ["refund", "query_order", "unknown"] },
    Order: { type: "object", properties: { id: { type: "string" }, amount: { type: "number" } }, required: ["id"] },
  },
};

describe("validate", () => {
  it("accepts values of the declared types (opaque types accept anything, nested objects stay open)", () => {
    expect(validate(schema, { user_id: "u1" })).toBeUndefined();
    expect(
      validate(schema, {
        user_id: "u1",
        messages: [{ role: "user", content: "hi" }, "hello"],
        intent: "refund",
        order: { id: "ORD1", amount: 5, note: "extra" },
        limit: null,
        tags: { vip: true },
      }),
    ).toBeUndefined();
  });

  it("names the first field that does not fit, and says what was expected", () => {
    expect(validate(schema, {})).toEqual({ path: "user_id", message: "is required" });
    expect(validate(schema, { user_id: 5 })).toEqual({ path: "user_id", message: "must be a string (got number 5)" });
    expect(validate(schema, { user_id: "u", usr: 1 })).toEqual({
      path: "usr",
      message: "is not a field of this input (expected one of: user_id, messages, intent, order, limit, tags)",
    });
    expect(validate(schema, { user_id: "u", intent: "refnud" })).toEqual({ path: "intent", message: 'must be one of "refund", "query_order", "unknown"' });
    expect(validate(schema, { user_id: "u", order: { amount: 1 } })).toEqual({ path: "order/id", message: "is required" });
    expect(validate(schema, { user_id: "u", order: { id: "x", amount: "1" } })).toEqual({ path: "order/amount", message: 'must be a number (got string "1")' });
    expect(validate(schema, { user_id: "u", limit: "x" })?.path).toBe("limit");
    expect(validate(schema, { user_id: "u", tags: { vip: "yes" } })).toEqual({ path: "tags/vip", message: 'must be a boolean (got string "yes")' });
    expect(validate(schema, { user_id: "u", messages: {} })).toEqual({ path: "messages", message: "must be an array (got an object)" });
    expect(validate(schema, [])).toEqual({ path: "", message: "must be an object (got an array)" });
  });
});
