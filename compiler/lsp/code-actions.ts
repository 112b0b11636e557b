/**
 * Quick fixes for every "did you mean …?" hint (compiler/diagnostics/messages.ts `didYouMean`): one action
 * per suggested name, replacing the misspelt name the diagnostic points at. Read from the server's own
 * check of the current text (with the hints), not from what the client echoes back.
 */
import { CodeActionKind, type CodeAction, type Range } from "vscode-languageserver";
import type { Diagnostic } from "../../grammar/diagnostic.ts";
import { pathToUri, spanToRange } from "./paths.ts";
import { toLsp } from "./diagnostics.ts";

const DID_YOU_MEAN = /^did you mean ((?:`[^`]+`(?: or )?)+)\?/;

/** the names a hint suggests (empty when it is not a did-you-mean hint) */
export function suggestedNames(hint: string | undefined): string[] {
  const m = hint === undefined ? null : DID_YOU_MEAN.exec(hint);
  return m ? [...m[1]!.matchAll(/`([^`]+)`/g)].map((x) => x[1]!) : [];
}

export function quickFixes(diagnostics: readonly Diagnostic[], text: string, range: Range): CodeAction[] {
  const out: CodeAction[] = [];
  for (const x of diagnostics) {
    const r = spanToRange(x.span);
    if (after(r.start, range.end) || after(range.start, r.end)) continue;
    const written = text.slice(x.span.start.offset, x.span.end.offset);
    // only a plain name is replaced: the span must be the misspelt identifier itself
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(written)) continue;
    suggestedNames(x.hint).forEach((name, i) =>
      out.push({
        title: `Change \`${written}\` to \`${name}\``,
        kind: CodeActionKind.QuickFix,
        diagnostics: [toLsp(x)],
        isPreferred: i === 0,
        edit: { changes: { [pathToUri(x.span.file)]: [{ range: r, newText: name }] } },
      }),
    );
  }
  return out;
}

const after = (a: Range["start"], b: Range["start"]) => a.line > b.line || (a.line === b.line && a.character > b.character);
