/**
 * `${NAME}` / `${NAME:-fallback}` placeholders in variable defaults. They are parsed here and resolved at
 * run time only (never at compile time, so no secret lands in generated code). `$${` is a literal `${`.
 */
import type { TemplatePart } from "./model.ts";

export interface TemplateError {
  /** offset of the problem inside the string value */
  readonly offset: number;
  readonly length: number;
  readonly problem: string;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Parses a string; returns undefined parts when it has no placeholder at all. */
export function parseTemplate(value: string): { parts?: TemplatePart[]; errors: TemplateError[] } {
  if (!value.includes("${")) return { errors: [] };
  const parts: TemplatePart[] = [];
  const errors: TemplateError[] = [];
  let text = "";
  let i = 0;
  while (i < value.length) {
    if (value.startsWith("$${", i)) {
      text += "${";
      i += 3;
      continue;
    }
    if (!value.startsWith("${", i)) {
      text += value[i];
      i++;
      continue;
    }
    const close = value.indexOf("}", i + 2);
    if (close < 0) {
      errors.push({ offset: i, length: value.length - i, problem: "`${` is never closed with `}`" });
      break;
    }
    const body = value.slice(i + 2, close);
    const sep = body.indexOf(":-");
    const name = sep >= 0 ? body.slice(0, sep) : body;
    if (!NAME.test(name)) {
      const problem =
        name === ""
          ? "empty variable name"
          : sep < 0 && body.includes(":")
            ? `\`${body}\` is not \`NAME\` or \`NAME:-default\``
            : `\`${name}\` is not a valid environment variable name`;
      errors.push({ offset: i, length: close + 1 - i, problem });
    } else {
      if (text) parts.push({ kind: "text", text });
      text = "";
      parts.push(sep >= 0 ? { kind: "env", name, fallback: body.slice(sep + 2) } : { kind: "env", name });
    }
    i = close + 1;
  }
  if (text) parts.push({ kind: "text", text });
  return errors.length ? { errors } : { parts, errors };
}
