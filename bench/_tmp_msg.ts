import { messages } from "graphc/runtime";
for (const n of [50, 200, 800]) {
  let best = Infinity;
  for (let r = 0; r < 5; r++) {
    let arr: unknown[] = [];
    const t0 = performance.now();
    for (let i = 0; i < n; i++) arr = messages(arr, { role: "assistant", content: `m${i}`, id: `id${i}` });
    best = Math.min(best, ((performance.now() - t0) * 1000) / n);
  }
  console.log(n, "messages: µs per append", best.toFixed(3));
}
