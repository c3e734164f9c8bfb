// Issue 15's "a model that never helps": --mode llm against an OpenAI-compatible server on
// 127.0.0.1 that answers every request with prose (no code, no category), beside --mode trace and
// --mode dummy, over the first N snippets of a dataset. Before issue 15 llm scored below dummy
// (48.1 % against 51.9 % on 40 so-node-edits snippets): its fallback was a classifier's dummy.
// Usage: node --no-node-snapshot eval/llmNeverHelps.ts [DATASET.jsonl] [N]
//   default: ../shared/datasets/so-node-edits.jsonl, 40 snippets.
import { join } from 'node:path';
import { runBatch } from '../src/batch/runBatch.ts';
import { LlmEnvironment } from '../src/llm/llmSession.ts';
import { parseLlmOptions } from '../src/llm/llmOptions.ts';
import { SHARED_DIR } from '../datasets/loadDatasets.ts';
import { startScriptedLlm } from '../test/llmServer.ts';

const file = process.argv[2] ?? join(SHARED_DIR, 'so-node-edits.jsonl');
const limit = Number(process.argv[3] ?? 40);
const PROSE = 'I would need to see more of your project to say what this should be. Could you share the rest of the code?';
const server = await startScriptedLlm(() => ({ reply: PROSE }));
try {
  const llm = new LlmEnvironment(parseLlmOptions({ baseURL: server.url, apiKey: 'local', model: 'never-helps', retries: 0 }), { env: {} });
  const rows: string[] = [];
  for (const mode of ['dummy', 'trace', 'llm'] as const) {
    const { summary } = await runBatch(file, { mode }, { concurrency: 2, limit }, undefined, mode === 'llm' ? { llm } : {});
    const u = summary.llmCalls;
    rows.push(`| ${mode} | ${(summary.lineCoverage * 100).toFixed(1)} % | ${(summary.fullyExecutedRate * 100).toFixed(1)} % | ${mode === 'llm' ? `${u.calls} requests, ${u.elements} elements` : '–'} |`);
  }
  console.log(`${limit} snippets of ${file}, a server that answers only prose:\n\n| mode | line coverage | fully executed | LLM |\n|---|---|---|---|\n${rows.join('\n')}`);
} finally {
  await server.close();
}
