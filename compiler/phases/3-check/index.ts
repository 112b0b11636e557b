/**
 * The checker: runs every rule file over every graph of the program (imported and inline graphs included),
 * then the program-wide subgraph rules (cycles, nesting) and the file-level ones (files.ts). Returns
 * diagnostics; never mutates the model.
 */
import type { Diagnostic } from "../../../grammar/diagnostic.ts";
import type { Program } from "../2-bind/model.ts";
import { checkConditions } from "./conditions.ts";
import type { CheckContext } from "./context.ts";
import { checkEdges } from "./edges.ts";
import { checkFiles } from "./files.ts";
import { checkFlow } from "./flow.ts";
import { checkNames } from "./names.ts";
import { checkImplements, checkInterfaceShapes } from "./interfaces.ts";
import { checkMeta } from "./meta.ts";
import { checkNodes } from "./nodes.ts";
import { checkOptions } from "./options.ts";
import { checkReducers } from "./reducers.ts";
import { checkState } from "./state.ts";
import { checkProgramSubgraphs, checkSubgraphs } from "./subgraphs.ts";
import { checkUses } from "./uses.ts";
import { checkVars } from "./vars.ts";

const GRAPH_RULES = [
  checkNames,
  checkState,
  checkReducers,
  checkVars,
  checkNodes,
  checkSubgraphs,
  checkUses,
  checkEdges,
  checkConditions,
  checkOptions,
  checkMeta,
  checkImplements,
  checkFlow,
];

export function checkProgram(program: Program): Diagnostic[] {
  const ctx: CheckContext = { program, diagnostics: [] };
  for (const g of program.graphs) for (const rule of GRAPH_RULES) rule(g, ctx);
  checkProgramSubgraphs(ctx);
  checkInterfaceShapes(ctx);
  checkFiles(ctx);
  return ctx.diagnostics;
}
