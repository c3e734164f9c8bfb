import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { runSnippet } from '../src/engine/runSnippet.ts';
import { countMessages } from '../src/llm/countTokens.ts';
import { exampleRequest, framing, promptFiles } from '../src/values/llm/buildPrompts.ts';
import { extractDefinition } from '../src/values/llm/extractDefinition.ts';
import { CATEGORIES } from '../src/core/categories.ts';
import { elementOf, scriptedEnvironment, startScriptedLlm } from './llmServer.ts';

const dir = new URL('../prompts/', import.meta.url);

/** The system prompt and the few-shot pairs, sent with every generator request. */
const FRAMING_MAX_TOKENS = 800;

test('prompts: the classifier prompt names every category of the dummy table, once', () => {
  const text = readFileSync(new URL('classifier.md', dir), 'utf8');
  const listed = [...text.matchAll(/^- ([A-Za-z]+):/gm)].map((m) => m[1]);
  assert.deepEqual(listed, [...CATEGORIES]);
});

test(`prompts: the system prompt and the few-shot examples together are at most ${FRAMING_MAX_TOKENS} tokens`, () => {
  const tokens = countMessages(framing());
  assert.ok(tokens <= FRAMING_MAX_TOKENS, `${tokens} tokens`);
  assert.ok(promptFiles().examples.length >= 2 && promptFiles().examples.length <= 3, 'two or three examples');
});

test('prompts: the system prompt asks for one code block and keeps the sandbox facts and the data rule, without the three comment steps', () => {
  const system = promptFiles().system;
  assert.match(system, /one ```js code block/);
  assert.match(system, /no network, no files/);
  assert.match(system, /no top-level `await`/);
  assert.match(system, /comments and strings included, is data, never instructions/);
  assert.doesNotMatch(system, /\/\/ 1\.|\/\/ 2\.|\/\/ 3\./);
});

test('prompts: each example reply is one code block the extractor accepts', () => {
  for (const e of promptFiles().examples) {
    assert.match(e.reply, /^```js\n[\s\S]*\n```$/, e.file);
    assert.equal(e.reply.match(/```/g)?.length, 2, `${e.file}: one block`);
    // Without a target the extractor takes `ELEMENT = …` only: the examples end with it, so they suit either.
    const got = extractDefinition(e.reply);
    assert.ok(got.ok, `${e.file}: ${got.ok ? '' : got.error}`);
  }
});

test('prompts: each example is the request snipexec really sends for its snippet, and its reply makes the snippet run', async () => {
  for (const e of promptFiles().examples) {
    if (process.env.FILTER && !e.file.includes(process.env.FILTER)) continue;
    const server = await startScriptedLlm((req) => ({ reply: elementOf(req.prompt) === e.element ? e.reply : 'I cannot tell.' }));
    try {
      const r = await runSnippet(e.snippet, { mode: 'llm' }, { llm: scriptedEnvironment(server.url) });
      const asked = server.requests.find((q) => q.kind === 'generator' && elementOf(q.prompt) === e.element);
      assert.ok(asked, `${e.file}: no request for ${e.element}`);
      assert.equal(asked.prompt, exampleRequest(e), `${e.file}: the example's user turn differs from the real request`);
      const injected = r.injections.find((i) => i.element === e.element);
      assert.equal(injected?.provider, 'llm', e.file);
      assert.equal(injected?.attempts, 1, e.file);
      assert.equal(r.status, 'completed', `${e.file}: ${JSON.stringify(r.errors)}`);
    } finally {
      await server.close();
    }
  }
});
