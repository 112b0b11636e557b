// The runtime's internal property names that its minified bundle shortens (esbuild `mangleProps`): the fields
// and methods of the loops, tasks, channels and checkpoint state, and the hooks between the loop and its
// optional parts (contracts.ts) — about 5 KB of the package's JavaScript (docs/packages.md).
//
// A name is listed only when it can never reach code outside the bundle: every use of it in runtime/ is a
// member declared by a runtime module (a class or an interface of its own, never a type literal describing a
// thrown error or stored data), no published declaration names it (a user could read it), no string is it
// (reflective access, persisted or streamed keys), and no built-in object has it. `auditMangled` checks the
// list against the sources with the type checker (test/packages/mangle-props.test.ts); the build itself
// checks the published declarations (`checkMangled`). A name missing from the list merely stays long.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { Project, ts } from "ts-morph";

export const MANGLED = Object.freeze([
  "_id", "_ns", "_nsArr", "activeN", "addNode", "addUpdate", "after", "afterApply", "afterStep", "announced",
  "applyStep", "armed", "attachPending", "baseId", "beginResume", "breakpoint", "bubble", "byName", "byRank",
  "candBuf", "candN", "cands", "causedByFailure", "ch", "checkpointMap", "checkpointState", "childNs", "childResult",
  "clearActive", "cn", "commit", "complete", "consume", "consumeJoin", "controller", "cp", "cpConfig", "cpId",
  "deferred", "discardPending", "drain", "draining", "drive", "driveAsync", "durable", "edgeTrig", "emitInterrupt",
  "emitMessages", "emitTaskDone", "emitTaskStart", "emitTaskStopped", "emitValues", "emitView", "ended", "endStep",
  "fail", "failAt", "failed", "failedAt", "failErr", "finish", "finishStep", "flatWrites", "flush", "fresh",
  "fullGraph", "genuine", "hasCheckpoint", "hasDeferred", "hasValue", "interruptCount", "isRoot", "joinByKey", "joinFin",
  "joinSeen", "joinsIn", "joinTrigger", "joinW", "lean", "lend", "makeId", "makeLoop", "makeRun", "marked",
  "maxV", "mine", "modes", "names", "newVersions", "nsArr", "onCancel", "one", "onProgress", "opts", "orphanWrites",
  "pageOne", "parent", "parentCfg", "pending", "plain", "plainStart", "policy", "prepare", "pullCount",
  "putWritesRaw", "queue", "quickStart", "ranChild", "rank", "rankMark", "record", "replay", "resetCands",
  "resetWrites", "resumes", "resuming", "router", "runChild", "runCtx", "runLimited", "runSpan", "runTasks",
  "runWithPolicy", "saveCheckpoint", "savedMaxV", "saver", "saves", "sawOutput", "scanAll", "seen", "sends",
  "setStop", "settle", "settled", "siblingFailure", "single", "sink", "site", "sorted", "startChild", "startInput",
  "startStep", "stateGraph", "staticInterrupt", "stepController", "stepCtx", "stepError", "steps", "stepSignal",
  "stepSpan", "stop", "storedConfig", "streamGraph", "takeCommand", "takeInput", "targets", "taskController",
  "threads", "tick", "ticks", "timeTravel", "toParent", "traceError", "tracer", "trig", "trigFin", "trigger",
  "triggerKey", "troubled", "unlink", "unlinkStep", "unsaved", "varsOverride", "versions", "view", "waiting",
  "waitingFail", "writeBuf", "written", "wrote",
  "ups", "spare",
  // the lean loop's (w5c)
  "leanNodes", "varsV",
  // the lean loop's lone task (w4b)
  "lone",
  // the static loop's (tiny4)
  "handed", "leanWrites", "pulls", "runs",
  // private members of published classes (tiny5): their declarations say `private name;` only
  "assemble", "forget", "heads", "missingCheckpointing", "noDefaults", "putCheckpoint", "putUncached", "remember", "scores",
  "storeWrites", "store_", "vectorsOf",
  // w6d: MemoryStore's own
  "spaceOf",
  // small streams: a lean graph's run and stream on its small loop, the events both loops push
  "streamRun", "commandRun", "emitStepStart", "emitCustom",
  // a lean graph's Command input on its small loop (small-command.ts)
  "smallInput", "startCommand",
]);

/** esbuild's `mangleProps`: exactly the listed names */
export const manglePattern = () => new RegExp(`^(?:${MANGLED.map((n) => n.replace(/\$/g, "\\$")).join("|")})$`);

/**
 * Throws when a published declaration file of `dist` names a mangled property: users would read a name the
 * bundle renamed. Every identifier and string literal type counts (a string type can be a mapped key),
 * parameter names, private members' names (tsc writes `private name;` to keep a class nominal; no user code
 * compiles against it, and the audit lets a class's private members be mangled) and comments aside.
 */
export function checkMangled(dist) {
  const mangled = new Set(MANGLED);
  const found = new Set();
  for (const f of readdirSync(dist, { recursive: true, encoding: "utf8" })) {
    if (!f.endsWith(".d.ts")) continue;
    const visit = (node) => {
      const isParameterName = ts.isIdentifier(node) && ts.isParameter(node.parent) && node.parent.name === node;
      const isPrivateName =
        ts.isIdentifier(node) && ts.isClassElement(node.parent) && node.parent.name === node && (ts.getCombinedModifierFlags(node.parent) & ts.ModifierFlags.Private) !== 0;
      if ((ts.isIdentifier(node) && !isParameterName && !isPrivateName) || ts.isStringLiteralLike(node)) {
        if (mangled.has(node.text)) found.add(`${node.text} (${f})`);
      }
      ts.forEachChild(node, visit);
    };
    visit(ts.createSourceFile(f, readFileSync(join(dist, f), "utf8"), ts.ScriptTarget.Latest, true));
  }
  if (found.size > 0) throw new Error(`mangled property names appear in the published declarations: ${[...found].join(", ")}; take them out of scripts/mangle-props.mjs`);
}

/**
 * The runtime modules whose declarations describe only objects the runtime makes and keeps to itself. The
 * others describe what crosses the package's edge (stored checkpoints and items, the savers' rows, tracing
 * and model APIs, the generated spec, the config): a member declared there is never mangled.
 */
const INTERNAL_MODULES = new Set([
  "loop", "task", "durable", "lean/loop", "lean/task", "small-loop", "static/loop", "static/graph", "graph", "graph-base", "compiled", "contracts", "features",
  "superstep", "task-base", "writes", "channels", "results", "save-queue", "thread-lock", "step-signal", "command-input", "checkpoint-state",
  "state", "streaming", "stream-events", "stream", "policy", "durability", "ids", "core", "install", "install-streaming", "index",
  "saver", "checkpoint/memory",
]);

/**
 * Checks `names` (MANGLED) against the runtime's sources (`runtime`: the package folder) with the type checker; returns
 * the problems found, one line each (none: every listed name is safe to shorten). For every property access,
 * object literal key, destructured key and member declaration whose name is listed, the member it resolves
 * to must be declared in INTERNAL_MODULES (or be private to a class), outside any cast, and an object
 * literal's key must be one its type declares (a fresh key may be streamed or stored as written); no string
 * literal in runtime/ may be the name, and no built-in object may have it.
 */
export function auditMangled(runtime, names = MANGLED) {
  const listed = new Set(names);
  const problems = [];
  const project = new Project({ tsConfigFilePath: join(runtime, "tsconfig.build.json") });
  const program = project.getProgram().compilerObject;
  const checker = program.getTypeChecker();
  const moduleOf = (file) => relative(runtime, file).replace(/\.ts$/, "").split(sep).join("/");
  const inRuntime = (file) => !relative(runtime, file).startsWith("..") && !file.endsWith(".d.ts") && !relative(runtime, file).startsWith("dist");
  const builtins = new Set();
  const seen = new Set();
  const addNames = (o) => {
    if (o === null || (typeof o !== "object" && typeof o !== "function") || seen.has(o)) return;
    seen.add(o);
    for (const k of Object.getOwnPropertyNames(o)) builtins.add(k);
  };
  // the standard objects the runtime touches (the test runner's own globals aside)
  const standard = [
    Object, Array, String, Number, Boolean, Symbol, BigInt, Function, Promise, Map, Set, WeakMap, WeakSet, Date, RegExp, Error,
    JSON, Math, Reflect, AbortController, AbortSignal, EventTarget, Event, Uint8Array, ArrayBuffer, DataView, TextEncoder,
    TextDecoder, URL, globalThis.crypto, globalThis.performance, console, (async function* () {})(), [][Symbol.iterator](), globalThis,
  ];
  for (const v of standard) {
    addNames(v);
    addNames(v?.prototype);
    addNames(Object.getPrototypeOf(v));
  }
  for (const n of listed) if (builtins.has(n)) problems.push(`${n}: a built-in object has it`);
  const members = (type) => {
    const t = checker.getNonNullableType(type);
    return (t.isUnion() ? t.types : [t]).map((p) => checker.getPropertyOfType(checker.getApparentType(p), name));
  };
  let name = "";
  for (const sf of program.getSourceFiles()) {
    if (!inRuntime(sf.fileName)) continue;
    const where = (node) => `${moduleOf(sf.fileName)}:${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
    const check = (node, declarations) => {
      if (declarations.length === 0) problems.push(`${name}: ${where(node)} resolves to no declaration`);
      for (const d of declarations) {
        const m = inRuntime(d.getSourceFile().fileName) ? moduleOf(d.getSourceFile().fileName) : d.getSourceFile().fileName;
        // a private member is the runtime's own in any module (tracing.ts's span state, next to its OTel shapes)
        const isPrivate = ts.isClassElement(d) && (ts.getCombinedModifierFlags(d) & ts.ModifierFlags.Private) !== 0;
        if (!INTERNAL_MODULES.has(m) && !isPrivate) problems.push(`${name}: ${where(node)} is declared in ${m}`);
        for (let q = d.parent; q !== undefined && ts.isTypeNode(q); q = q.parent) {
          if (ts.isAsExpression(q.parent) || ts.isTypeAssertionExpression(q.parent)) problems.push(`${name}: ${where(node)} is declared in a cast`);
        }
      }
    };
    const visit = (node) => {
      // a string that is the name: a key read or written by string (`o["name"]`, `"name" in o`, a key list)
      if (ts.isStringLiteralLike(node) && listed.has(node.text)) problems.push(`${node.text}: ${where(node)} is a string`);
      let id;
      if (ts.isPropertyAccessExpression(node)) id = node.name;
      else if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) id = node.propertyName ?? node.name;
      else if ((ts.isPropertyAssignment(node) || ts.isShorthandPropertyAssignment(node) || ts.isMethodDeclaration(node)) && ts.isObjectLiteralExpression(node.parent)) id = node.name;
      else if (ts.isClassElement(node) || ts.isTypeElement(node)) id = node.name;
      else if (ts.isParameter(node) && ts.isParameterPropertyDeclaration(node, node.parent)) id = node.name;
      if (id !== undefined && ts.isIdentifier(id) && listed.has(id.text)) {
        name = id.text;
        if (ts.isPropertyAccessExpression(node)) {
          const sym = checker.getSymbolAtLocation(node.name);
          check(node, sym ? (sym.declarations ?? []) : members(checker.getTypeAtLocation(node.expression)).flatMap((s) => s?.declarations ?? [undefined]).filter(Boolean));
        } else if (ts.isBindingElement(node)) {
          check(node, members(checker.getTypeAtLocation(node.parent)).flatMap((s) => s?.declarations ?? []));
        } else if (ts.isObjectLiteralExpression(node.parent)) {
          const type = checker.getContextualType(node.parent);
          const found = type ? members(type).filter(Boolean) : [];
          if (found.length === 0) problems.push(`${name}: ${where(node)} is a key its object's type does not declare`);
          else check(node, found.flatMap((s) => s.declarations ?? []));
        } else check(node, [node]);
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return [...new Set(problems)];
}
