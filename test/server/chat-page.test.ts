/**
 * The demo as a service: `graphc serve --chat` with the customer-service graph, its chat page opened in
 * headless Chromium (Debian's chromium, driven by playwright-core), a refund above the limit asked for,
 * the confirmation button clicked, and the refund read back through the API.
 */
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { chromium, type Browser } from "playwright-core";
import { CHROMIUM } from "../consumer/browser.ts";
import { tempDir, type TempDir } from "../temp-dir.ts";
import { CUSTOMER_SERVICE, startServer, type ServerProcess } from "./server-process.ts";

let tmp: TempDir;
let server: ServerProcess;
let browser: Browser;

beforeAll(async () => {
  tmp = tempDir("server-chat");
  [server, browser] = await Promise.all([
    startServer([CUSTOMER_SERVICE, "--chat", "--data", join(tmp.dir, "data")], { CS_DB: join(tmp.dir, "business.db") }),
    chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] }),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  tmp?.remove();
});

it("the chat page shows the conversation and the streamed steps, and its button confirms a large refund", async () => {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(`${server.url}/chat`);
  await page.locator("#status", { hasText: "idle" }).waitFor({ timeout: 20_000 });
  const threadId = (await page.locator("#thread").textContent())!;

  await page.locator("#message").fill("ORD1003 也要退款");
  await page.locator("#send button").click();
  await page.locator("#confirm").waitFor({ state: "visible", timeout: 20_000 });
  expect(await page.locator("#question").textContent()).toContain("ORD1003 退款 ¥1299");
  expect(await page.locator("#status").textContent()).toBe("waiting for confirmation");
  const steps = await page.locator("#steps li").allTextContents();
  expect(steps).toContain("[reception] classify → intent, entities");
  expect(steps).toContain("[execution] prepare → idempotency_key, amount, replayed");
  expect(await page.locator("#conversation li.user").allTextContents()).toEqual(["ORD1003 也要退款"]);

  await page.locator("#approve").click();
  await page.locator("#status", { hasText: "idle" }).waitFor({ timeout: 20_000 });
  await expect.poll(() => page.locator("#conversation li.assistant").allTextContents()).toContainEqual(expect.stringContaining("已为订单 ORD1003 退款 ¥1299"));
  expect(await page.locator("#confirm").isVisible()).toBe(false);
  expect(await page.locator("#steps li").allTextContents()).toContain("[execution] execute → execution_result, messages");
  expect(errors).toEqual([]);

  const state = (await (await fetch(`${server.url}/threads/${threadId}/state`)).json()) as { values: { execution_result: { status: string; actor: string } } };
  expect(state.values.execution_result).toMatchObject({ status: "done", actor: "human:web" });
});
