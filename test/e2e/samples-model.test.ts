/**
 * The samples' model adapter (samples/shared/chat-model.ts): offline by default, an OpenAI-compatible
 * /chat/completions call (plain fetch, stubbed here) only when OPENAI_API_KEY is set.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { modelFromEnv, OpenAICompatibleModel, ScriptedModel } from "../../samples/shared/chat-model.ts";

const scripted = new ScriptedModel("scripted", (turns) => `echo:${turns.at(-1)?.content}`);

afterEach(() => vi.unstubAllGlobals());

describe("samples chat model", () => {
  it("uses the scripted model unless OPENAI_API_KEY is set", async () => {
    expect(modelFromEnv("gpt-4o-mini", scripted, {})).toBe(scripted);
    expect(await scripted.complete([{ role: "user", content: "hi" }])).toBe("echo:hi");
    const remote = modelFromEnv("gpt-4o-mini", scripted, {
      OPENAI_API_KEY: "k",
      OPENAI_BASE_URL: "http://llm.local/v1/",
    });
    expect(remote).toBeInstanceOf(OpenAICompatibleModel);
    expect(remote.name).toBe("gpt-4o-mini");
  });

  it("posts an OpenAI-style chat completion and returns the message content", async () => {
    const fetch = vi.fn(
      async (_url: string, _init: RequestInit) =>
        new Response(JSON.stringify({ choices: [{ message: { content: '{"intent":"refund"}' } }] }), { status: 200 }),
    );
    vi.stubGlobal("fetch", fetch);
    const model = new OpenAICompatibleModel({ apiKey: "sk-test", model: "m1", baseUrl: "http://llm.local/v1/" });
    const out = await model.complete([{ role: "user", content: "退款" }], { json: true });
    expect(out).toBe('{"intent":"refund"}');
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe("http://llm.local/v1/chat/completions");
    expect((init.headers as Record<string, string>)["authorization"]).toBe("Bearer sk-test");
    expect(JSON.parse(init.body as string)).toEqual({
      model: "m1",
      temperature: 0,
      messages: [{ role: "user", content: "退款" }],
      response_format: { type: "json_object" },
    });
  });

  it("reports an HTTP error with its status (so retry policies can skip 4xx)", async () => {
    vi.stubGlobal("fetch", async () => new Response("bad key", { status: 401 }));
    const model = new OpenAICompatibleModel({ apiKey: "x", model: "m" });
    await expect(model.complete([{ role: "user", content: "hi" }])).rejects.toMatchObject({
      status: 401,
      message: expect.stringContaining("answered 401: bad key"),
    });
  });
});
