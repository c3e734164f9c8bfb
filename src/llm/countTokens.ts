import { createRequire } from 'node:module';
import type * as Encoding from 'gpt-tokenizer/encoding/o200k_base';
import type { ChatMessage } from './chatTransport.ts';

/**
 * The encoding prompts are measured in: o200k_base (GPT-4o, GPT-4.1, o-series, gpt-oss). Other
 * models' tokenizers differ by some percent either way; the budgets leave room for that.
 */
export const TOKEN_ENCODING = 'o200k_base';

/** OpenAI's chat accounting: each message costs its role and content plus 3, and a reply is primed with 3. */
const PER_MESSAGE = 3;
const REPLY_PRIMING = 3;

let encoding: typeof Encoding | undefined;

// Loaded on first use, synchronously: its 2.4 MB rank table costs ~0.4 s, paid only by runs that build prompts.
function encoder(): typeof Encoding {
  encoding ??= createRequire(import.meta.url)(`gpt-tokenizer/cjs/encoding/${TOKEN_ENCODING}`) as typeof Encoding;
  return encoding;
}

// A snippet may contain `<|endoftext|>`: it is counted as the text it is, never refused.
const AS_TEXT = { disallowedSpecial: new Set<string>() };

/** How many tokens `text` is in TOKEN_ENCODING. */
export function countTokens(text: string): number {
  return text === '' ? 0 : encoder().countTokens(text, AS_TEXT);
}

/** How many prompt tokens a Chat Completions request of these messages costs (OpenAI's cookbook formula). */
export function countMessages(messages: readonly ChatMessage[]): number {
  return messages.reduce((sum, m) => sum + PER_MESSAGE + countTokens(m.role) + countTokens(m.content), REPLY_PRIMING);
}
