/**
 * The language model as the samples see it: a chat completion that returns text. The samples run on
 * deterministic scripted implementations (no network, same output every run, so tests can assert it);
 * `OpenAICompatibleModel` talks to any OpenAI-style /chat/completions endpoint with plain fetch.
 */

export interface ChatTurn {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface CompleteOptions {
  /** ask for a JSON object (OpenAI's response_format json_object) */
  json?: boolean;
  /** aborts the request when the node times out or the run is cancelled */
  signal?: AbortSignal;
}

export interface ChatModel {
  /** shown in progress output and stored with messages */
  readonly name: string;
  complete(turns: readonly ChatTurn[], options?: CompleteOptions): Promise<string>;
}

/** A model whose answer is a pure function of the conversation. */
export class ScriptedModel implements ChatModel {
  readonly name: string;
  private readonly script: (turns: readonly ChatTurn[]) => string;

  constructor(name: string, script: (turns: readonly ChatTurn[]) => string) {
    this.name = name;
    this.script = script;
  }

  complete(turns: readonly ChatTurn[], options: CompleteOptions = {}): Promise<string> {
    options.signal?.throwIfAborted();
    return Promise.resolve(this.script(turns));
  }
}

export interface OpenAIConfig {
  apiKey: string;
  model: string;
  /** default https://api.openai.com/v1 */
  baseUrl?: string;
}

export class OpenAICompatibleModel implements ChatModel {
  readonly name: string;
  private readonly url: string;

  private readonly config: OpenAIConfig;

  constructor(config: OpenAIConfig) {
    this.config = config;
    this.name = config.model;
    this.url = `${(config.baseUrl ?? "https://api.openai.com/v1").replace(/\/+$/, "")}/chat/completions`;
  }

  async complete(turns: readonly ChatTurn[], options: CompleteOptions = {}): Promise<string> {
    const body: Record<string, unknown> = { model: this.config.model, temperature: 0, messages: turns };
    if (options.json) body["response_format"] = { type: "json_object" };
    const init: RequestInit = {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${this.config.apiKey}` },
      body: JSON.stringify(body),
    };
    if (options.signal) init.signal = options.signal;
    const res = await fetch(this.url, init);
    if (!res.ok) {
      // the status travels with the error so the runtime's retry policy can skip 4xx (as LangGraph's does)
      const err = new Error(`${this.url} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
      Object.assign(err, { status: res.status });
      throw err;
    }
    const data = (await res.json()) as { choices?: { message?: { content?: string } }[] };
    const content = data.choices?.[0]?.message?.content;
    if (typeof content !== "string") throw new Error(`${this.url} returned no message content`);
    return content;
  }
}

/**
 * The OpenAI-compatible model when OPENAI_API_KEY is set (OPENAI_BASE_URL optional), else `scripted`.
 * Read at call time, never at import time, so tests and demos stay offline unless asked.
 */
export function modelFromEnv(model: string, scripted: ChatModel, env = process.env): ChatModel {
  const apiKey = env["OPENAI_API_KEY"];
  if (!apiKey) return scripted;
  const baseUrl = env["OPENAI_BASE_URL"];
  return new OpenAICompatibleModel(baseUrl ? { apiKey, model, baseUrl } : { apiKey, model });
}

/** the last user turn's text ("" when there is none) */
export function lastUserText(turns: readonly ChatTurn[]): string {
  for (let i = turns.length - 1; i >= 0; i--) if (turns[i]!.role === "user") return turns[i]!.content;
  return "";
}
