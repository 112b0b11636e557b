/**
 * @graphc/runtime/streaming — a side-effect entry: `import "@graphc/runtime/streaming"` installs `stream()`
 * for a program built with the lean runtime ("@graphc/runtime/core"), without the other optional parts: a lean
 * graph streams on its small loop, as it is invoked (a run that needs the full graph needs what installs it).
 */
import { installStreaming } from "./install.ts";

installStreaming();
