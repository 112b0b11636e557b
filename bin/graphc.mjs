#!/usr/bin/env node
// The `graphc` command of the published package: runs the compiled CLI (dist/, built by `npm run build`).
// In the repository, without a build, use bin/graphc-dev.mjs (`npm run graphc`).
import { run } from "../dist/compiler/cli/main.js";

await run();
