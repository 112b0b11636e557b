#!/usr/bin/env node
// The `graphc` command: runs the TypeScript CLI (compiler/cli/main.ts) through tsx's loader API, so
// `npx graphc` works in this repository without a build step.
import { tsImport } from "tsx/esm/api";

const { run } = await tsImport("../compiler/cli/main.ts", import.meta.url);
await run();
