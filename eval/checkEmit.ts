// For every snippet that a mode (default dummy) fully executes, runs the --emit'ted program with
// `--mode none` and counts those that are again fully executed with no injection.
// Usage: npm run check-emit -- [--mode trace] [--call-uncalled] ../shared/datasets/so-node-edits.jsonl [more.jsonl]
import { existsSync } from 'node:fs';
import { readDataset } from '../src/batch/readDataset.ts';
import { runSnippet } from '../src/index.ts';

const args = process.argv.slice(2);
const modeAt = args.indexOf('--mode');
const mode = (modeAt >= 0 ? args.splice(modeAt, 2)[1] : 'dummy') as 'dummy' | 'trace';
const callAt = args.indexOf('--call-uncalled');
const callUncalled = callAt >= 0;
if (callUncalled) args.splice(callAt, 1);
const files = args;
if (files.length === 0) console.error('usage: checkEmit.ts DATASET.jsonl…');
for (const file of files) {
  if (!existsSync(file)) {
    console.log(`${file}: absent, skipped`);
    continue;
  }
  let full = 0;
  let holds = 0;
  const broken: string[] = [];
  for await (const item of readDataset(file)) {
    const r = await runSnippet(item.code, { mode, callUncalled, ...(item.lang ? { lang: item.lang } : {}) });
    if (!r.fullyExecuted || r.status === 'syntax-error' || !r.program) continue;
    full++;
    const again = await runSnippet(r.program, { mode: 'none', ...(item.lang ? { lang: item.lang } : {}) });
    if (again.fullyExecuted && again.injections.length === 0) holds++;
    else broken.push(item.id);
  }
  console.log(JSON.stringify({ file, mode, callUncalled, fullyExecuted: full, emittedFullyExecutedByNone: holds, broken }));
}
