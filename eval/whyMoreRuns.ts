// Why a function body takes a third run (issue 30): each body runs once as written (--no-drive
// --scenarios 1, or the defaults' first scenario with --drive), with the book and the run loop
// watched from outside (DefinitionBook's and Replays' methods wrapped; nothing is replayed). For a
// body of 3+ runs it names what the second run, meant as the measured one, met that made the loop
// go on, and why the first run did not meet it:
// - `new element, not reached in run 1`: a recording proxy or value for an element whose site no
//   statement of run 1 reached: the learnt values took another path (the decision listed is the
//   first branch whose arms differ between the runs; `proxy-answered` when a recording proxy
//   answered it in run 1);
// - `new element, reached in run 1`: the site ran in run 1, but asked for another element there
//   (a key, or a member the learnt value lacks, or a function's result a proxy never gave);
// - `retried` (a value refined/rejected in run 2, or blamed after it), `declared-type trial`,
//   `trace grew` (run 2 only re-learnt values from what it saw).
// Usage: npx node --no-node-snapshot eval/whyMoreRuns.ts [--limit N] [--drive] [--only SUBSTRING] [--verbose]
import { parseArgs } from 'node:util';
import { FUNCTIONS_FILE } from '../datasets/loadDatasets.ts';
import { readDataset, type DatasetItem } from '../src/batch/readDataset.ts';
import { runSnippet } from '../src/engine/runSnippet.ts';
import { DefinitionBook } from '../src/engine/definitionBook.ts';
import { Replays } from '../src/engine/replays.ts';
import type { ExecutionResult } from '../src/sandbox/runInIsolate.ts';
import type { CoverageMap } from '../src/instrument/coverageModel.ts';

const { values } = parseArgs({ options: { limit: { type: 'string' }, drive: { type: 'boolean', default: false }, only: { type: 'string' }, verbose: { type: 'boolean', default: false }, requests: { type: 'boolean', default: false } } });

interface Request { id: string; kind?: string; sid?: number; parent?: string; refine?: boolean; op: string; isNew: boolean; probe: boolean }
interface Run { requests: Request[]; result?: ExecutionResult; after: string[] }
let runs: Run[] = [];
let map: CoverageMap | undefined;
const current = (): Run => runs[runs.length - 1] ?? (runs.push({ requests: [], after: [] }), runs[0]!);

// Every run starts with Replays.keyOf (the session makes a Replays with one execution too) and ends with keep.
const R = Replays.prototype as unknown as Record<string, unknown>;
R.keyOf = function () { runs.push({ requests: [], after: [] }); return 'watched'; };
R.replay = async () => undefined;
R.keep = function (_key: string, _config: unknown, result: ExecutionResult) { current().result = result; };
const B = DefinitionBook.prototype as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
const handle = B.handle!;
B.handle = async function (this: DefinitionBook, json: unknown) {
  map = (this as unknown as { ctx: { map: CoverageMap } }).ctx.map;
  const req = JSON.parse(json as string) as Request;
  const had = this.defs.has(req.id);
  const answer = (await handle.call(this, json)) as string;
  current().requests.push({ ...req, isNew: !had && this.defs.has(req.id), probe: answer === '{"probe":true}' });
  return answer;
};
for (const name of ['setAsideDeclared', 'blame', 'blameStall', 'definitionsFailed']) {
  const original = B[name]!;
  B[name] = async function (this: DefinitionBook, ...args: unknown[]) {
    const r = await original.apply(this, args);
    if (r === true) current().after.push(name);
    return r;
  };
}

const coveredLines = (r: ExecutionResult | undefined): Set<number> => {
  const lines = new Set<number>();
  const counts = r?.report?.statements ?? [];
  for (const s of map?.statements ?? []) if ((counts[s.id] ?? 0) > 0) lines.add(s.line);
  return lines;
};
/** The first branch whose taken arms differ between two runs, as `line: kind`. */
const firstDifferentBranch = (a: ExecutionResult | undefined, b: ExecutionResult | undefined): string => {
  const ba = a?.report?.branches ?? [];
  const bb = b?.report?.branches ?? [];
  for (const info of map?.branches ?? []) {
    const x = (ba[info.id] ?? []).map((n) => n > 0);
    const y = (bb[info.id] ?? []).map((n) => n > 0);
    if (y.some((t, i) => t && !x[i])) {
      const answered = map?.sites.some((s) => s.line === info.line && String(s.id) in (a?.report?.answers ?? {}));
      return `line ${info.line} ${info.kind}${answered ? ' (proxy-answered)' : ''}`;
    }
  }
  return 'no branch';
};

function why(body: Run[]): { cause: string; detail: string } {
  const [first, second] = body;
  if (!first || !second) return { cause: 'fewer than 2 runs seen', detail: '' };
  if (first.after.includes('setAsideDeclared')) return { cause: 'declared-type trial after run 1', detail: '' };
  if (second.after.includes('setAsideDeclared')) return { cause: 'declared-type trial after run 2', detail: '' };
  const fresh = second.requests.filter((r) => r.isNew);
  const retried = second.requests.filter((r) => r.refine || r.op === 'reject');
  if (fresh.length > 0) {
    const lines = coveredLines(first.result);
    const site = (r: Request) => (r.sid !== undefined && r.sid >= 0 ? map?.sites[r.sid] : undefined);
    const unreached = fresh.filter((r) => { const s = site(r); return s !== undefined && !lines.has(s.line); });
    const probe = fresh.some((r) => r.probe) ? 'proxy' : 'concrete value';
    const describe = (r: Request) => `${r.kind}:${r.id}@${site(r)?.line ?? '-'}${r.probe ? '' : '(concrete)'}`;
    if (unreached.length > 0) return { cause: `new ${probe}, its site not reached in run 1 (${firstDifferentBranch(first.result, second.result).replace(/^line \d+ /, '')})`, detail: `${firstDifferentBranch(first.result, second.result)}; ${unreached.slice(0, 3).map(describe).join(', ')}` };
    const kinds = [...new Set(fresh.map((r) => r.kind === 'part' ? `part of ${fresh.some((f) => f.id === r.parent) ? 'a new one' : 'a learnt value'}` : r.kind))].sort().join('+');
    return { cause: `new ${probe}, its site reached in run 1: ${kinds}`, detail: fresh.slice(0, 3).map(describe).join(', ') };
  }
  if (retried.length > 0) return { cause: 'a value retried in run 2 (refine/reject)', detail: retried.slice(0, 3).map((r) => r.id).join(', ') };
  if (second.after.length > 0) return { cause: `after run 2: ${second.after.join('+')}`, detail: '' };
  return { cause: 'run 2 changed a value otherwise (trace grew)', detail: '' };
}

const items: DatasetItem[] = [];
for await (const item of readDataset(FUNCTIONS_FILE)) if (!values.only || item.id.includes(values.only)) items.push(item);
const chosen = values.limit === undefined ? items : items.slice(0, Number(values.limit));
const histogram = new Map<number, number>();
const causes = new Map<string, string[]>();
let total = 0;
for (const item of chosen) {
  runs = [];
  const result = await runSnippet(item.code, { drive: values.drive, scenarios: 1, ...(item.lang ? { lang: item.lang } : {}) });
  total += result.runs;
  histogram.set(Math.min(result.runs, 5), (histogram.get(Math.min(result.runs, 5)) ?? 0) + 1);
  if (values.requests) for (const [i, run] of runs.entries()) console.log(`run ${i + 1} (${run.result?.status}; answers ${JSON.stringify(run.result?.report?.answers ?? {})}; after: ${run.after.join(',')}):\n  ${run.requests.map((r) => `${r.op} ${r.kind}:${r.id}${r.isNew ? ' new' : ''}${r.probe ? ' probe' : ''}${r.refine ? ' refine' : ''} @${r.sid}`).join('\n  ')}`);
  if (result.runs < 3) continue;
  const { cause, detail } = why(runs);
  causes.set(cause, [...(causes.get(cause) ?? []), `${item.id} (${result.runs} runs): ${detail}`]);
}
console.log(`${chosen.length} bodies, ${values.drive ? 'drive' : 'as written'}, one scenario: ${(total / chosen.length).toFixed(3)} runs per body; ${[...histogram].sort((a, b) => a[0] - b[0]).map(([n, c]) => `${n === 5 ? '5+' : n}: ${c}`).join(', ')}\n`);
console.log('| why run 2 was not the last | bodies |\n|---|---|');
for (const [cause, list] of [...causes].sort((a, b) => b[1].length - a[1].length)) console.log(`| ${cause} | ${list.length} |`);
if (values.verbose) for (const [cause, list] of causes) console.log(`\n${cause}:\n  ${list.join('\n  ')}`);
