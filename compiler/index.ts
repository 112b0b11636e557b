/**
 * graphc's public API. Never prints, never exits: every function returns values and diagnostics; the CLI
 * (compiler/cli) renders them.
 */
export { compile, buildFiles, outPathFor } from "./compile.ts";
export type { CompileOptions, CompileResult, BuildOutput } from "./compile.ts";
export { check, hasErrors, sortDiagnostics } from "./check.ts";
export type { CheckResult, CheckOptions } from "./check.ts";
export { projectRoot, ROOT_MARKERS } from "./phases/2-bind/project-root.ts";
export type { ProjectRoot } from "./phases/2-bind/project-root.ts";
export { lower } from "./phases/4-lower/index.ts";
export type * from "./phases/4-lower/ir.ts";
export type { EmittedFile, SourceMapV3 } from "./phases/5-emit/index.ts";
export { nodeHost, memoryHost } from "./phases/2-bind/host.ts";
export type { CompilerHost } from "./phases/2-bind/host.ts";
export { VERSION } from "./version.ts";
export type { Diagnostic, RelatedLocation } from "../grammar/diagnostic.ts";
export type { Span, Position } from "../grammar/span.ts";
export { renderPretty, summary } from "./diagnostics/render.ts";
export type { RenderOptions } from "./diagnostics/render.ts";
export { toJson } from "./diagnostics/json.ts";
export type { JsonDiagnostic } from "./diagnostics/json.ts";
export { format } from "./format/index.ts";
export type { FormatResult } from "./format/index.ts";
export { draw, drawingOf } from "./draw/index.ts";
export type { DrawFormat, Drawing, DrawEdge, DrawNode } from "./draw/index.ts";
export { graphSchemas, typeSchema } from "./schema/json-schema.ts";
export type { GraphSchemas, JsonSchema, JsonValue } from "./schema/json-schema.ts";
