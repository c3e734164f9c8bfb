// How long a batch worker process (`batch --processes`) takes to answer its first snippet: a pool
// of one worker is started and given `console.log(x.y);` in trace mode, --runs times, each time a
// fresh worker. Prints each time to the first reply and their median; the CPU of this process and
// its workers is what `/usr/bin/time` around it reports.
// Usage: npx node --no-node-snapshot eval/workerStart.ts [--runs N]
//        (with NODE_DISABLE_COMPILE_CACHE=1: the workers without Node's compile cache)
import { parseArgs } from 'node:util';
import { SnippetProcessPool } from '../src/batch/processPool.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const runs = Number(values.runs);
if (!(Number.isInteger(runs) && runs > 0)) throw new Error('--runs: a whole number above 0');
const times: number[] = [];
for (let i = 0; i < runs; i++) {
  const started = performance.now();
  const pool = new SnippetProcessPool(1);
  try {
    const r = await pool.run({ id: 'first', code: 'console.log(x.y);' }, { mode: 'trace' });
    if (r.status !== 'completed') throw new Error(`the first snippet ended ${r.status}`);
    times.push(performance.now() - started);
  } finally {
    await pool.close();
  }
}
const sorted = [...times].sort((a, b) => a - b);
process.stdout.write(`first reply, ms: ${times.map((t) => t.toFixed(0)).join(' ')}; median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(0)}\n`);
