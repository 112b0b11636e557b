import { W1 } from "./_tmp-build/w1.graph.ts";
const N = Number(process.argv[2] ?? 3000);
for (let i = 0; i < 200; i++) await W1.invoke({ count: 0, log: [] }, { recursionLimit: 10000 });
const t0 = performance.now();
for (let i = 0; i < N; i++) await W1.invoke({ count: 0, log: [] }, { recursionLimit: 10000 });
console.log("W1 gen µs/invoke", (((performance.now() - t0) * 1000) / N).toFixed(1));
