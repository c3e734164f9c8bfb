import { LlmReplyTooLarge } from '../core/errors.ts';

/**
 * A fetch for the OpenAI client that reads at most `maxBytes` of a reply body: a larger one (by
 * its Content-Length, or as it streams in) is cancelled and fails with LlmReplyTooLarge, so a
 * lying endpoint cannot fill the host's memory. The body read is handed on as a new Response.
 */
export function cappedFetch(maxBytes: number, base: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init);
    const tooLarge = () => new LlmReplyTooLarge(`the LLM endpoint's reply is larger than ${maxBytes} bytes (--llm-max-reply-bytes)`);
    const declared = Number(response.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > maxBytes) {
      await response.body?.cancel().catch(() => undefined);
      throw tooLarge();
    }
    if (!response.body) return response;
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge();
      }
      chunks.push(value);
    }
    const body = new Uint8Array(size);
    let at = 0;
    for (const c of chunks) {
      body.set(c, at);
      at += c.byteLength;
    }
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}
