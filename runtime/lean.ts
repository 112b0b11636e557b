/**
 * @graphc/runtime/lean — what generated code imports in lean mode (`graphc build --runtime lean`): the same
 * names as "@graphc/runtime/core", installing nothing, so that a bundle of a lean-eligible graph holds the lean
 * loop (lean/loop.ts) and none of the full one. `stream()`, a saver and the state API then need their part
 * imported ("@graphc/runtime/streaming", a saver, or "@graphc/runtime"); a run that needs one that is not
 * there fails with a `GraphValueError` naming the import.
 */
export * from "./core.ts";
