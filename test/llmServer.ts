import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LlmEnvironment } from '../src/llm/llmSession.ts';
import { parseLlmOptions, type LlmOptionsInput } from '../src/llm/llmOptions.ts';

/** One request as the scripted server saw it. */
export interface SeenRequest {
  readonly raw: string;
  readonly body: { model?: string; messages?: { role: string; content: string }[]; temperature?: number };
  /** The last user message: the prompt proper. */
  readonly prompt: string;
  readonly kind: 'generator' | 'classifier';
  readonly at: number;
}

/** What the server does with one request. */
export type Scripted =
  | { readonly reply: string }
  | { readonly status: number; readonly body?: string; readonly headers?: Record<string, string> }
  | { readonly raw: string }
  | { readonly delayMs: number; readonly then: Scripted }
  | { readonly hangUp: true }
  /** Never answers: the request stays open until the client gives up or the server closes. */
  | { readonly silent: true };

export type Script = (request: SeenRequest, index: number) => Scripted;

/**
 * An OpenAI-compatible Chat Completions server on 127.0.0.1 with scripted replies: the LLM tests
 * never reach a real provider. Every request is recorded, raw body included.
 */
export async function startScriptedLlm(script: Script): Promise<{ url: string; requests: SeenRequest[]; close(): Promise<void> }> {
  const requests: SeenRequest[] = [];
  const server: Server = createServer(async (req, res) => {
    const raw = await readBody(req);
    let body: SeenRequest['body'] = {};
    try { body = JSON.parse(raw) as SeenRequest['body']; } catch { /* recorded raw */ }
    const prompt = [...(body.messages ?? [])].reverse().find((m) => m.role === 'user')?.content ?? '';
    const seen: SeenRequest = { raw, body, prompt, kind: /You classify the value/.test(prompt) ? 'classifier' : 'generator', at: Date.now() };
    requests.push(seen);
    let step = script(seen, requests.length - 1);
    while ('delayMs' in step) {
      const { delayMs, then } = step;
      await new Promise((r) => setTimeout(r, delayMs));
      if (res.destroyed) return;
      step = then;
    }
    if ('hangUp' in step) { req.socket.destroy(); return; }
    if ('silent' in step) return;
    if ('raw' in step) { res.writeHead(200, { 'content-type': 'application/json' }).end(step.raw); return; }
    if ('status' in step) { res.writeHead(step.status, { 'content-type': 'application/json', ...step.headers }).end(step.body ?? JSON.stringify({ error: { message: `scripted ${step.status}` } })); return; }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
      id: `chatcmpl-${requests.length}`, object: 'chat.completion', created: 0, model: body.model ?? 'scripted',
      choices: [{ index: 0, message: { role: 'assistant', content: step.reply }, finish_reason: 'stop' }],
      usage: { prompt_tokens: Math.ceil(raw.length / 4), completion_tokens: Math.ceil(step.reply.length / 4), total_tokens: 0 },
    }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

/** An LLM environment for the scripted server, with fast retries; `env` is what gets redacted. */
export function scriptedEnvironment(url: string, overrides: Partial<LlmOptionsInput> = {}, env: NodeJS.ProcessEnv = {}): LlmEnvironment {
  return new LlmEnvironment(parseLlmOptions({ baseURL: url, apiKey: 'test-key', model: 'scripted', retryMinDelayMs: 5, retryMaxDelayMs: 2_000, requestTimeoutMs: 5_000, ...overrides }), { env });
}

/** A reply in the system prompt's format. */
export function definition(code: string): string {
  return ['```js', '// 1. require/import', '// (nothing needed)', '// 2. define', '// 3. assign', code, '```'].join('\n');
}

/** The element a generator prompt asks for. */
export function elementOf(prompt: string): string | undefined {
  return /(?:Element: |definition of )`([^`]+)`/.exec(prompt)?.[1];
}
