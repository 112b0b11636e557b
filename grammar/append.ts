/**
 * `appendAll(target, items)`: `target.push(...items)` without the spread. A spread passes every item as a
 * call argument, and V8 throws a RangeError ("Maximum call stack size exceeded") beyond roughly 100k of
 * them — a program with 120k diagnostics collapsed into one internal error that way. Use this for any
 * list whose length the input decides; a test keeps `push(...` out of compiler/ and grammar/.
 */
export function appendAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const x of items) target.push(x);
  return target;
}
