/** When checkpoints are written: every step awaited ("sync"), queued ("async", the default), at exit only. */
export type Durability = "sync" | "async" | "exit";
