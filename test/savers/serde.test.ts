import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { decode, encode, roundTrip, sameValue } from "../../runtime/checkpoint/serde.ts";
import { CheckpointError } from "../../runtime/checkpoint/errors.ts";

/** Storable values: JSON plus the extensions serde promises to keep exactly. */
const storable = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.jsonValue({ maxDepth: 2 }),
    fc.constantFrom(undefined, -0, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY),
    fc.bigInt(),
    fc.date({ noInvalidDate: false }),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.string(), fc.constantFrom("$g", "__proto__", "v")), tie("value"), { maxKeys: 4, noNullPrototype: true }),
    fc.array(fc.tuple(tie("value"), tie("value")), { maxLength: 3 }).map((e) => new Map(e)),
    fc.array(tie("value"), { maxLength: 3 }).map((e) => new Set(e)),
  ),
})).value;

describe("serde", () => {
  it("property: decode(encode(v)) is exactly v, and a fresh copy", () => {
    fc.assert(
      fc.property(storable, (v) => {
        const back = decode(encode(v));
        expect(back).toStrictEqual(v);
        if (typeof v === "object" && v !== null) expect(back).not.toBe(v);
        expect(encode(back)).toBe(encode(v));
      }),
      { numRuns: 300 },
    );
  });

  it("plain JSON is stored as JSON.stringify gives it", () => {
    const v = { a: [1, "x", null, { b: true }], c: "d" };
    expect(encode(v)).toBe(JSON.stringify(v));
  });

  it("a finite number on its own is stored as JSON.stringify gives it (encoded without it)", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
        if (!Object.is(n, -0)) expect(encode(n)).toBe(JSON.stringify(n));
      }),
      { numRuns: 1000 },
    );
    for (const n of [0, 7, -1, 0.1 + 0.2, 1e21, 1e-7, 2 ** 53, Number.MAX_VALUE, Number.MIN_VALUE, -1.5e-300]) {
      expect(encode(n)).toBe(JSON.stringify(n));
      expect(decode(encode(n))).toBe(n);
    }
  });

  it("keeps undefined properties and array slots, -0 and a literal $g key", () => {
    const v = { a: undefined, list: [undefined, -0], $g: "u", nested: { $g: { v: 1 } } };
    const back = roundTrip(v) as typeof v;
    expect(Object.keys(back)).toEqual(["a", "list", "$g", "nested"]);
    expect(back.list).toHaveLength(2);
    expect(Object.is(back.list[1], -0)).toBe(true);
    expect(back).toStrictEqual(v);
  });

  it("a __proto__ key stays data and does not change the prototype", () => {
    const v = JSON.parse('{"__proto__": {"polluted": true}, "x": [undefined]}'.replace("[undefined]", "1")) as object;
    const back = roundTrip({ wrap: v, u: undefined }) as { wrap: Record<string, unknown> };
    expect(Object.getPrototypeOf(back.wrap)).toBe(Object.prototype);
    expect(Object.keys(back.wrap)).toEqual(["__proto__", "x"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    ["a function", { f: () => 1 }, "value.f", /a function/],
    ["a symbol", [Symbol("s")], "value[0]", /a symbol/],
    ["a class instance", { at: new (class Point { x = 1 })() }, "value.at", /class Point/],
    ["a Map value", new Map([["k", () => 1]]), "value.get(k)", /a function/],
  ])("rejects %s with a CheckpointError naming its path", (_name, value, path, text) => {
    const err = (() => {
      try {
        encode(value);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(CheckpointError);
    expect(err).toMatchObject({ code: "UNSERIALIZABLE_VALUE", field: path });
    expect((err as Error).message).toMatch(text);
  });

  it("rejects cycles but stores shared sub-objects as copies", () => {
    const shared = { n: 1 };
    const back = roundTrip({ a: shared, b: shared }) as { a: object; b: object };
    expect(back).toEqual({ a: { n: 1 }, b: { n: 1 } });
    expect(back.a).not.toBe(back.b);
    const cyclic: unknown[] = [];
    cyclic.push({ back: cyclic });
    expect(() => encode(cyclic, 'channel "c"')).toThrow(/Cannot store channel "c"\[0\]\.back: .*cycle/);
  });

  it("an object with a null prototype reads back as a plain object with the same keys", () => {
    const v = Object.assign(Object.create(null) as object, { a: 1 });
    const back = roundTrip(v);
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(back).toEqual({ a: 1 });
  });

  it("sameValue compares as stored", () => {
    expect(sameValue({ a: [1, undefined] }, { a: [1, undefined] })).toBe(true);
    expect(sameValue({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(sameValue(0, -0)).toBe(false);
    expect(sameValue(() => 1, () => 1)).toBe(false);
  });

  it("an unknown tag in stored text is reported as corrupt", () => {
    expect(() => decode('{"$g":"zz"}')).toThrow(CheckpointError);
  });
});
