// `node --no-node-snapshot eval/closureSearchCost.ts [--base DIR] [--runs 3]`: the CPU time (user + system, by
// /usr/bin/time, children included) of recording a worst case for the search of a maker call's result for its
// closures (record/closureOrigins.ts): 2,000 calls each of a function enclosing a callback that returns an array of
// 100 numbers, and of one returning an object holding a closure (200,000 calls recorded, the default cap), with
// this checkout and with --base DIR (another checkout, built), alternated, --runs times each.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { base: { type: 'string' }, runs: { type: 'string', default: '3' }, once: { type: 'string' } } });
const PROGRAM = `function doubled(items) { return items.map((x) => x * 2); }
function box(x) { return { get: () => x, value: x }; }
const items = Array.from({ length: 100 }, (_, i) => i);
let sum = 0;
for (let i = 0; i < 2000; i++) { sum += doubled(items)[99]; sum += box(i).get(); }
console.log(sum);
`;

if (values.once !== undefined) {
  // One recording with the checkout at --once, in a folder of its own.
  const { recordProgram } = (await import(pathToFileURL(join(values.once, 'src/record/recordProgram.ts')).href)) as { recordProgram: (p: string, a: string[], o: object) => Promise<unknown> };
  const dir = mkdtempSync(join(tmpdir(), 'closure-search-'));
  writeFileSync(join(dir, 'bench.cjs'), PROGRAM);
  await recordProgram('bench.cjs', [], { cwd: dir, stdio: 'ignore' });
  rmSync(dir, { recursive: true, force: true });
} else {
  const roots = [...(values.base !== undefined ? [['base', resolve(values.base)]] : []), ['this', resolve(import.meta.dirname, '..')]] as const;
  const cpu: Record<string, number[]> = {};
  for (let run = 0; run < Number(values.runs); run++) {
    for (const [name, root] of roots) {
      const r = spawnSync('/usr/bin/time', ['-f', '%U %S', process.execPath, '--no-node-snapshot', import.meta.filename, '--once', root], { encoding: 'utf8' });
      const [user = 0, sys = 0] = (r.stderr.trim().split('\n').at(-1) ?? '').split(' ').map(Number);
      (cpu[name] ??= []).push(user + sys);
    }
  }
  for (const [name, times] of Object.entries(cpu)) console.log(`${name}: CPU ${times.map((t) => t.toFixed(2)).join(', ')} s (median ${times.sort((a, b) => a - b)[Math.floor(times.length / 2)]?.toFixed(2)} s)`);
}
