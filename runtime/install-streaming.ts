/**
 * @graphc/runtime/streaming — a side-effect entry: `import "@graphc/runtime/streaming"` installs `stream()`
 * (and the full compiled graph it runs on) for a program built with the lean runtime ("@graphc/runtime/core"),
 * without the other optional parts.
 */
import { installStreaming } from "./install.ts";

installStreaming();
