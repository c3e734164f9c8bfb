import assert from 'node:assert/strict';
import { test } from 'node:test';
import pino, { type Logger } from 'pino';
import { ProviderFailed, runSnippet } from '../src/index.ts';
import type { ValueProvider } from '../src/index.ts';
import { heuristicClassifier } from '../src/values/classifyHeuristic.ts';
import { selected } from './helpers.ts';

const FULL = [
  { name: 'function returning a pair', code: 'const [first, second] = splitPair("left-right");\nconsole.log(first.toUpperCase(), second.length);', element: 'splitPair', category: 'function' },
  { name: 'unavailable module', code: 'const express = require("express");\nconst app = express();\napp.use(express.static("p"));\napp.listen(3000);', element: 'require("express")', category: 'function' },
  { name: 'import of a module', code: 'import { readFileSync } from "fs";\nconst text = readFileSync("a.txt", "utf8");\nconsole.log(text.trim());', element: 'require("fs").readFileSync', category: 'function' },
  { name: 'class used with new', code: 'const c = new Client({ id: 1 });\nc.connect();', element: 'Client', category: 'class' },
  { name: 'awaited value', code: 'const res = await fetchData();\nconsole.log(res.items);', element: 'fetchData()', category: 'promise' },
  { name: 'DOM element', code: 'const btn = document.querySelector("#b");\nbtn.addEventListener("click", () => {});\nbtn.classList.add("on");', element: 'document', category: 'element' },
  { name: 'iterated value', code: 'for (const row of rows) {\n  console.log(row);\n}', element: 'rows', category: 'array' },
  { name: 'function body on its own', code: 'if (options.verbose) {\n  log(options.name.toUpperCase());\n}\nreturn this.value;', element: 'options', category: 'object' },
  { name: 'top-level this is a receiver', code: 'this.ray.setOrigin(400, 300);\nconst hit = this.ray.cast();\nconsole.log(hit.object);', element: 'this', category: 'object' },
  { name: 'a top-level name shadows a global the definitions use', code: 'let Promise = require("promise");\nconst all = Promise.all([]);\nconst r = await load();\nconsole.log(r.ok, all);', element: 'load()', category: 'promise' },
  { name: 'JSX', code: 'ReactDOM.render(<App title={props.title} />, document.getElementById("root"));', element: 'ReactDOM', category: 'object' },
] as const;

for (const c of selected(FULL)) {
  test(`inject: ${c.name}`, async () => {
    // Injection alone: with environments, express, fs and document are the environments' own, not injected.
    const r = await runSnippet(c.code, { mode: 'dummy', environments: false });
    assert.equal(r.fullyExecuted, true, `uncovered ${r.lines.uncovered}; errors ${JSON.stringify(r.errors)}`);
    const inj = r.injections.find((i) => i.element === c.element);
    assert.ok(inj, `no injection for ${c.element}: ${r.injections.map((i) => i.element).join(', ')}`);
    assert.equal(inj.category, c.category);
  });
}

test('inject: mode none injects nothing and stops at the first missing name', async () => {
  const r = await runSnippet('const a = 1;\nfoo();\nconst b = 2;', { mode: 'none' });
  assert.equal(r.status, 'stopped');
  assert.deepEqual(r.injections, []);
  assert.deepEqual(r.errors.map((e) => [e.type, e.line]), [['ReferenceError', 2]]);
});

test('inject: errors are attributed to the snippet or to an injected value', async () => {
  const own = await runSnippet('const n = 5;\nn.trim();', { mode: 'dummy' });
  assert.deepEqual(own.errors.map((e) => e.attribution), ['snippet']);
  const provider: ValueProvider = { name: 'nulls', propose: async () => ({ source: 'null', refs: [], category: 'null' }) };
  const injected = await runSnippet('console.log(thing.x);', {}, { values: { provider, classifier: heuristicClassifier, fallback: async () => ({ category: 'null', by: 'heuristic' }) } });
  assert.deepEqual(injected.errors.map((e) => [e.type, e.attribution]), [['TypeError', 'injected']]);
});

test('inject: a failed proposal is fed back and retried, at most 5 times, then the fallback is used', async () => {
  // Recorded here, asserted after the run: an assertion inside the provider would be the provider's failure.
  const seen: { attempt: number; history: number }[] = [];
  const provider: ValueProvider = {
    name: 'scripted',
    async propose(req) {
      if (req.element !== 'widget') return { source: '{}', refs: [], category: 'object' };
      seen.push({ attempt: req.attempt, history: req.history.length });
      return { source: 'syntax error here', refs: [], category: 'object' };
    },
  };
  const r = await runSnippet('console.log(widget.size);', {}, { values: { provider, classifier: heuristicClassifier, fallback: async () => ({ category: 'object', by: 'heuristic' }) } });
  assert.deepEqual(seen.map((s) => s.attempt), [1, 2, 3, 4, 5]);
  assert.deepEqual(seen.map((s) => s.history), [0, 1, 2, 3, 4], 'each retry carries the failures so far');
  const inj = r.injections.find((i) => i.element === 'widget');
  assert.equal(inj?.provider, 'heuristic-fallback');
  assert.equal(r.fullyExecuted, true);
});

test('inject: a value that fails again at the same element is refined', async () => {
  const r = await runSnippet('const cfg = settings;\ncfg();', { mode: 'dummy' });
  assert.equal(r.fullyExecuted, true, JSON.stringify(r.errors));
  const inj = r.injections.find((i) => i.element === 'settings');
  assert.equal(inj?.category, 'function');
});

test('inject: the emitted program runs fully with mode none and injects nothing', async () => {
  for (const c of FULL) {
    // Injection alone: a program that loads environments loads them from snipexec, for plain Node (test/emitEnvironments.test.ts).
    const r = await runSnippet(c.code, { mode: 'dummy', environments: false });
    assert.ok(r.program);
    const again = await runSnippet(r.program, { mode: 'none', drive: false, fileName: 'program.js' });
    assert.equal(again.fullyExecuted, true, `${c.name}: ${JSON.stringify(again.errors)}\n${r.program}`);
    assert.deepEqual(again.injections, []);
  }
});

test('inject: a value that makes the run fail later is retried with the error, and coverage never drops', async () => {
  const seen: { attempt: number; history: number }[] = [];
  const provider: ValueProvider = {
    name: 'scripted',
    async propose(req) {
      if (req.element !== 'list') return undefined;
      seen.push({ attempt: req.attempt, history: req.history.length });
      return req.attempt === 1 ? { source: '[]', refs: [], category: 'array' } : { source: '[2.5]', refs: [], category: 'array' };
    },
  };
  const r = await runSnippet('const first = list[0];\nconsole.log(first.toFixed(1));', {}, { values: { provider, classifier: heuristicClassifier, fallback: async () => ({ category: 'array', by: 'heuristic' }) } });
  assert.deepEqual(seen, [{ attempt: 1, history: 0 }, { attempt: 2, history: 1 }], 'the failure was blamed on list and fed back');
  assert.equal(r.fullyExecuted, true, JSON.stringify(r.errors));
  assert.equal(r.stdout, '2.5\n');
});

/** A value source around one provider, with the heuristic classifier and a fixed fallback category. */
const sourceOf = (provider: ValueProvider) => ({ provider, classifier: heuristicClassifier, fallback: async () => ({ category: 'object' as const, by: 'heuristic' }) });

/** A pino logger whose lines are kept in memory, parsed. */
function memoryLogger(): { logger: Logger; lines: { level: number; msg: string; err?: { message: string; stack: string } }[] } {
  const lines: { level: number; msg: string; err?: { message: string; stack: string } }[] = [];
  const logger = pino({ level: 'error' }, { write: (line: string) => { lines.push(JSON.parse(line) as (typeof lines)[number]); } });
  return { logger, lines };
}

test('inject: a value source that throws a plain Error is a host bug: internal-error, its message, its stack in the log', async () => {
  const { logger, lines } = memoryLogger();
  const provider: ValueProvider = { name: 'buggy', propose: async () => { throw new Error('host bug in the provider'); } };
  const r = await runSnippet('console.log(thing.x);', {}, { values: sourceOf(provider), logger });
  assert.equal(r.status, 'internal-error');
  assert.deepEqual(r.errors.filter((e) => e.type === 'InternalError').map((e) => e.message), ['host bug in the provider']);
  assert.ok(!r.errors.some((e) => e.attribution === 'provider'), 'a host bug is not a provider error');
  assert.equal(lines.length > 0, true, 'logged');
  assert.match(lines[0]?.err?.stack ?? '', /Error: host bug in the provider\n\s+at /);
});

test('inject: a ProviderFailed is the provider\'s own failure: reported as such, the fallback decides, the run is real', async () => {
  const { logger, lines } = memoryLogger();
  const provider: ValueProvider = { name: 'flaky', propose: async () => { throw new ProviderFailed('the value service is down'); } };
  const r = await runSnippet('const t = thing;\nconsole.log(typeof t);', {}, { values: sourceOf(provider), logger });
  assert.equal(r.status, 'completed', JSON.stringify(r.errors));
  assert.deepEqual(r.errors.map((e) => [e.type, e.message, e.attribution]), [['PROVIDER_FAILED', 'the value service is down', 'provider']]);
  assert.deepEqual(r.injections.map((i) => [i.element, i.provider]), [['thing', 'heuristic-fallback']]);
  assert.equal(r.stdout, 'object\n');
  assert.equal(r.degraded, undefined);
  assert.deepEqual(lines, [], 'nothing logged as a host bug');
});

test('inject: a host bug between runs never reports the learning run (recording proxies) it came after', async () => {
  const provider: ValueProvider = {
    name: 'learns-then-breaks',
    async propose(req) {
      if (req.mayProbe) return { source: '', refs: [], category: 'Dummy', probe: true };
      throw new TypeError('host bug after learning');
    },
  };
  const r = await runSnippet('console.log("learning run");\nconsole.log(thing.x);', {}, { values: sourceOf(provider) });
  assert.equal(r.status, 'internal-error');
  assert.deepEqual(r.errors.map((e) => [e.type, e.message]), [['InternalError', 'host bug after learning']]);
  assert.equal(r.stdout, '', 'not the learning run\'s output');
  assert.deepEqual(r.injections, [], 'no recording proxy listed');
  assert.equal(r.lines.covered, 0);
});

test('inject: a module that Node\'s require (the node environment\'s) cannot find is injected as a module, whichever require asks', async () => {
  // With `process` in the snippet the node environment is loaded, and its global require asks the runtime for modules it lacks.
  const direct = 'const pad = require("left-pad-xyz");\nconsole.log(pad("a", 3), process.argv.length);';
  const indirect = 'const load = require;\nconst pad = load("left-pad-xyz");\nconsole.log(pad("a", 3), process.argv.length);';
  for (const code of [direct, indirect]) {
    const r = await runSnippet(code, { mode: 'trace' });
    assert.deepEqual(r.environments?.loaded, ['node']);
    const inj = r.injections.find((i) => i.element === 'require("left-pad-xyz")');
    assert.ok(inj, `no injection of the module: ${JSON.stringify(r.injections)}`);
    assert.equal(inj.kind, 'module');
    assert.match(r.types ?? '', /declare module "left-pad-xyz"/);
  }
});

test('inject: a SyntaxError an injected function rejects with, unhandled, stops the run as Node would; it is no internal error', async () => {
  // The injected definition runs in the prelude's script (snipexec:prelude): its frames name it.
  const provider: ValueProvider = { name: 'async-parse', propose: async () => ({ source: 'async function loadConfig() { return JSON.parse("{"); }', refs: [], category: 'function' }) };
  const r = await runSnippet('loadConfig();\nconsole.log("sync");\n', { mode: 'dummy', environments: false }, { values: { provider, classifier: heuristicClassifier, fallback: async () => ({ category: 'function', by: 'heuristic' }) } });
  assert.equal(r.status, 'stopped', JSON.stringify(r.errors));
  assert.equal(r.stdout, 'sync\n');
  assert.deepEqual(r.errors.map((e) => e.type), ['UnhandledRejection']);
  assert.match(r.errors[0]?.message ?? '', /JSON/);
});
