#!/usr/bin/env node
// `graphc` in this repository (`npm run graphc`, test/cli/spawn.test.ts): runs the TypeScript CLI
// (compiler/cli/main.ts) through tsx's loader API, so it works without a build step. The published
// command is bin/graphc.mjs, which runs the compiled JavaScript.
import { tsImport } from "tsx/esm/api";

const { run } = await tsImport("../compiler/cli/main.ts", import.meta.url);
await run();
