import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import * as t from '@babel/types';
import { HOST_SHAPES, type HostShape } from '../eval/hostShapes.ts';
import { HostDeadline } from '../src/core/hostDeadline.ts';
import { hostTimeoutResult } from '../src/engine/hostTimeoutResult.ts';
import { prepareInWorker } from '../src/engine/prepareInWorker.ts';
import { prepareSnippet } from '../src/engine/prepareSnippet.ts';
import { parseRunOptions, type RunOptionsInput } from '../src/core/options.ts';
import { runSnippet } from '../src/engine/runSnippet.ts';
import { HostTimeout } from '../src/core/errors.ts';
import { instrumentSnippet } from '../src/instrument/instrumentSnippet.ts';
import { parseSnippet } from '../src/parse/parseSnippet.ts';

const { NodePath } = createRequire(import.meta.url)('@babel/traverse') as { NodePath: { get: (...args: unknown[]) => unknown } };

/**
 * Host work, counted rather than timed, so the count is the same on any machine: every generic walk
 * over a node (Babel's traverse, `traverseFast`, the passes' own walks) reads the node type's
 * VISITOR_KEYS entry; every NodePath made or looked up (siblings, `path.get`) goes through
 * `NodePath.get`; every usage fact compared goes through JSON.stringify.
 */
function countHostWork(run: () => void): number {
  let work = 0;
  const keys = t.VISITOR_KEYS as Record<string, string[]>;
  const saved = Object.entries(keys);
  for (const [type, value] of saved) Object.defineProperty(keys, type, { get: () => { work++; return value; }, configurable: true, enumerable: true });
  const get = NodePath.get;
  NodePath.get = function (this: unknown, ...args: unknown[]) { work++; return get.apply(this, args); };
  const stringify = JSON.stringify;
  JSON.stringify = ((...args: Parameters<typeof JSON.stringify>) => { work++; return stringify(...args); }) as typeof JSON.stringify;
  try {
    run();
  } finally {
    JSON.stringify = stringify;
    NodePath.get = get;
    for (const [type, value] of saved) Object.defineProperty(keys, type, { value, writable: true, configurable: true, enumerable: true });
  }
  return work;
}

function hostWork(shape: HostShape, lines: number): number {
  const code = HOST_SHAPES[shape](lines);
  return countHostWork(() => {
    const parsed = parseSnippet(code, 'js');
    instrumentSnippet(parsed.ast, parsed.code, { lang: 'js', operatorHooks: true, drive: true });
  });
}

for (const shape of Object.keys(HOST_SHAPES) as HostShape[]) {
  test(`robustness: host work on ${shape} grows linearly with the snippet (4× the lines, at most 4.6× the work)`, () => {
    const small = hostWork(shape, 150);
    const large = hostWork(shape, 600);
    assert.ok(small > 150, `the meter counts work (${small})`);
    // Quadratic work would give 16×; n·log n about 4.5×.
    assert.ok(large / small <= 4.6, `${shape}: ${small} units at 150 lines, ${large} at 600 (${(large / small).toFixed(2)}×)`);
  });
}

test('robustness: host work past the snippet budget ends as host-timeout, before any run, with nothing covered', async () => {
  const code = HOST_SHAPES.ordinary(200);
  // A fake clock, 10 ms later at every reading: the 50 ms budget runs out within the host passes.
  let now = 0;
  const r = await runSnippet(code, { lang: 'js', totalTimeoutMs: 50 }, { clock: () => (now += 10) });
  assert.equal(r.status, 'host-timeout');
  assert.equal(r.runs, 0);
  assert.equal(r.fullyExecuted, false);
  assert.equal(r.lineCoverage, 0);
  assert.equal(r.errors.length, 1);
  assert.equal(r.errors[0]?.type, 'HostTimeout');
  assert.match(r.errors[0]?.message ?? '', /\(([a-z ]+)\) ran past the snippet's budget of 50 ms \(--total-timeout\)/);
  // The same snippet with a clock that stands still is run.
  const frozen = await runSnippet(code, { lang: 'js', totalTimeoutMs: 50, maxRuns: 1 }, { clock: () => 0 });
  assert.notEqual(frozen.status, 'host-timeout');
  assert.equal(frozen.runs, 1);
});

test('robustness: the long host passes read the deadline while they run, and stop when it has passed', () => {
  const code = HOST_SHAPES.ordinary(1000);
  const phases = new Map<string, number>();
  const spy = { check: (phase: string) => { phases.set(phase, (phases.get(phase) ?? 0) + 1); } };
  instrumentSnippet(parseSnippet(code, 'js', spy).ast, code, { lang: 'js', operatorHooks: true, deadline: spy });
  for (const phase of ['normalizing syntax', 'usage analysis', 'instrumentation']) {
    assert.ok((phases.get(phase) ?? 0) >= 2, `${phase} read the deadline ${phases.get(phase) ?? 0} times: ${JSON.stringify([...phases])}`);
  }
  // A deadline that has passed stops the pass it is read in.
  const late = { check: (phase: string) => { if (phase === 'instrumentation') throw new HostTimeout(phase, 50); } };
  assert.throws(() => instrumentSnippet(parseSnippet(code, 'js').ast, code, { lang: 'js', operatorHooks: true, deadline: late }), (e: unknown) => e instanceof HostTimeout && e.phase === 'instrumentation');
  // Each repair round of a snippet that will not parse reads it too.
  const repairs: string[] = [];
  assert.throws(() => parseSnippet('const = ;\n'.repeat(20), 'js', { check: (phase) => { repairs.push(phase); } }));
  assert.ok(repairs.filter((p) => p === 'repairing').length >= 2, repairs.join(', '));
});

test('robustness: a budget spent after instrumentation reports the measured lines, all uncovered', () => {
  const code = 'const a = 1;\nif (a) {\n  console.log(a);\n}\n';
  const instrumented = instrumentSnippet(parseSnippet(code, 'js').ast, code, { lang: 'js', operatorHooks: true });
  const r = hostTimeoutResult(new HostTimeout('preparing the first run', 50), 7, instrumented.map);
  assert.equal(r.status, 'host-timeout');
  assert.deepEqual(r.lines, { total: 3, covered: 0, measured: [1, 2, 3], uncovered: [1, 2, 3] });
  assert.deepEqual(r.branches, { total: 2, covered: 0 });
  assert.equal(r.fullyExecuted, false);
});

// ---- snippets nested deeper than the main thread's stack lets Babel go ----

test('robustness: a snippet nested 1,500 levels deep runs (prepared on a deep-stack thread), not a syntax or internal error', async () => {
  const depth = 1_500;
  const nested = 'let n = 0;\n' + 'if (n >= 0) {\n'.repeat(depth) + 'n++;\n' + '}\n'.repeat(depth) + 'console.log(n);\n';
  const r = await runSnippet(nested, { lang: 'js', mode: 'none' });
  assert.equal(r.status, 'completed', JSON.stringify(r.errors));
  assert.equal(r.stdout, '1\n');
  assert.equal(r.lines.total, depth + 3);
  assert.equal(r.lineCoverage, 1);
  // A long string concatenation is a left-deep tree of the same kind.
  const concat = 'const item = "x";\nconst html = "<ul>"' + '\n  + "<li>" + item + "</li>"'.repeat(600) + '\n  + "</ul>";\nconsole.log(html.length);\n';
  const c = await runSnippet(concat, { lang: 'js', mode: 'none' });
  assert.equal(c.status, 'completed', JSON.stringify(c.errors));
  assert.equal(c.stdout, `${4 + 600 * 10 + 5}\n`);
});

test('robustness: a snippet prepared on the deep-stack thread is the same as one prepared here', async () => {
  const snippets: [string, RunOptionsInput][] = [
    ['const { data } = await axios.get(url);\nif (!data.items) throw new Error("none");\nfor (const item of data.items) console.log(item.name.trim());\n', { lang: 'js' }],
    ['interface P { x: number }\nfunction f(p: P): number { return p.x * 2; }\nexport const y = f(toString);\n', { lang: 'ts', callUncalled: true }],
    ['const a = ;\nconsole.log(1);\n', {}],
  ];
  for (const [code, input] of snippets) {
    const options = parseRunOptions(input);
    const here = prepareSnippet(code, options, new HostDeadline(options.totalTimeoutMs));
    const there = await prepareInWorker(code, options, new HostDeadline(options.totalTimeoutMs));
    const plain = (p: typeof here) => {
      if ('status' in p) return { ...p, elapsedMs: 0 };
      const { statements, branches, sites } = p.instrumented.map;
      // The hook's name is salted per preparation (unguessable by the snippet): the same once it is set aside.
      // The trees stay on the thread that made them (the lowered one too): the program is then generated from a fresh parse.
      return JSON.parse(JSON.stringify({ parsed: { ...p.parsed, ast: undefined }, instrumented: { ...p.instrumented, lowered: undefined, map: { statements, branches, sites } } }).replaceAll(p.instrumented.hook, '<hook>')) as unknown;
    };
    assert.deepEqual(JSON.parse(JSON.stringify(plain(there))), JSON.parse(JSON.stringify(plain(here))), code);
    if (!('status' in there)) assert.equal(Object.getPrototypeOf(there.instrumented.usage), null, 'usage lookups never reach Object.prototype');
  }
});
