/**
 * How many cases each property runs. The total defaults to 20,000 per run; GRAPHC_PROPERTY_RUNS sets
 * another total, shared in the same proportions. Most cases are cheap token streams; the costly ones
 * (well-formed graphs, which are parsed several times) get small shares.
 */
const total = Number(process.env["GRAPHC_PROPERTY_RUNS"] ?? "20000");

export function runs(share: number): number {
  return Math.max(1, Math.round((Number.isFinite(total) && total > 0 ? total : 20000) * share));
}
