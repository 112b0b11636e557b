/**
 * A random uuid-shaped id (version nibble 5, as the derived ids of ids.ts; RFC 4122 variant) for a task of a
 * run without a checkpointer: it must be unique within the run and stable once read, never derived again.
 * Math.random, not WebCrypto: `crypto.randomUUID` exists only in secure browser contexts.
 */
export function randomUuid(): string {
  return "10000000-1000-5000-8000-100000000000".replace(/[018]/g, (c) => (+c ^ ((Math.random() * 16) >> (+c / 4))).toString(16));
}
