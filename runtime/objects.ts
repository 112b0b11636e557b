/** Object tests and writes that several parts of the runtime make, in one place (one copy in a bundle). */

/** An object that is neither null nor an array (a state update, an input, a stored header). */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** `o[key] = value` as an own data property: a `__proto__` key stays a key (an assignment sets the prototype). */
export function defineField(o: object, key: string, value: unknown): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}
