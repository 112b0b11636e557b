/** The demo's chat page (chat.html beside this file), served at `/chat`. */
import { readFileSync } from "node:fs";
import type { Hono } from "hono";
import type { Env } from "./api.ts";

export function chatPage(app: Hono<Env>): void {
  const html = readFileSync(new URL("./chat.html", import.meta.url), "utf8");
  app.get("/chat", (c) => c.html(html));
}
