import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { runSnippet } from '../src/index.ts';
import { prepareSnippet } from '../src/engine/prepareSnippet.ts';
import { HostDeadline } from '../src/core/hostDeadline.ts';
import { runOptionsSchema } from '../src/core/options.ts';
import { cli, selected } from './helpers.ts';

/**
 * Coverage cannot be forged. Line 2 is the body of a function nothing calls (the runs are
 * --no-drive): a counter that moved for it would be a forgery. Each snippet reads the name it finds
 * in a function's text and tries to reach the hook with it, through code built at run time.
 */
const NEVER = 'function never() {\n  console.log("never");\n}\n';

interface ForgeCase {
  readonly name: string;
  /** Sets `name` (a string) from what the snippet can read; the attack then uses it. */
  readonly read: string;
  readonly attack: string;
  /** What the snippet prints, exactly. */
  readonly stdout: string;
}

const FORGE = 'for (var i = 0; i < 200; i++) { H.c(i); H.b(i, 0); H.b(i, 1); }';
const forgeWith = (expr: string) => JSON.stringify(FORGE).replace(/H/g, `" + ${expr} + "`);
const REFUSED = 'EvalError\n';

const CASES: readonly ForgeCase[] = [
  { name: 'the red team\'s nested eval(eval(a + b))', read: 'String(never)', attack: 'eval(`eval(a + b)`)', stdout: REFUSED },
  { name: 'nested eval with the name spelled by char codes', read: 'never.toString()', attack: 'eval("eval(String.fromCharCode(" + [...name].map((c) => c.charCodeAt(0)) + "))")', stdout: REFUSED },
  { name: 'nested eval written with a unicode escape', read: 'Function.prototype.toString.call(never)', attack: 'eval("e\\\\u0076al(a + b)")', stdout: REFUSED },
  { name: 'nested eval written with a braced escape', read: '`${never}`', attack: 'eval("\\\\u{65}val(a + b)")', stdout: REFUSED },
  { name: 'nested eval inside a function of the eval\'d code', read: 'never + ""', attack: 'eval("(function () { return eval(a + b); })()")', stdout: REFUSED },
  { name: 'nested eval through an optional call', read: 'String(never)', attack: 'eval("eval?.(a + b)")', stdout: REFUSED },
  { name: 'nested eval that forges counters', read: 'String(never)', attack: `eval("eval(" + JSON.stringify(${forgeWith('name')}) + ")")`, stdout: REFUSED },
  { name: 'the name from the text is not the hook\'s: a direct eval of it', read: 'String(never)', attack: 'eval(name)', stdout: 'ReferenceError\n' },
  { name: 'the name from the text is not the hook\'s: a direct eval that forges with it', read: 'String(never)', attack: `eval(${forgeWith('name')})`, stdout: 'ReferenceError\n' },
  { name: 'indirect eval with the name', read: 'String(never)', attack: '(0, eval)(a + b)', stdout: 'ReferenceError\n' },
  { name: 'new Function with the name', read: 'String(never)', attack: 'Function("return " + name)()', stdout: 'ReferenceError\n' },
  { name: 'a string handed to setTimeout is refused as Node refuses it', read: 'String(never)', attack: `setTimeout(${forgeWith('name')}, 0)`, stdout: 'TypeError\n' },
  { name: 'the name of a class method\'s text', read: 'String(class { m() { return 1; } })', attack: `eval(${forgeWith('name')})`, stdout: 'ReferenceError\n' },
];

for (const c of selected(CASES)) {
  test(`hostile forge: ${c.name}`, () => {
    const code = `${NEVER}const name = /__snx_[0-9a-f]+/.exec(${c.read})[0];
const a = name.slice(0, 4), b = name.slice(4);
try { ${c.attack}; console.log('done'); } catch (e) { console.log(e.name); }
`;
    const r = cli(['run', '-', '--json', '--mode', 'none', '--no-drive', '--timeout', '60000'], code, 120_000);
    assert.equal(r.signal, null, r.stderr);
    const result = JSON.parse(r.stdout) as { status: string; stdout: string; lineCoverage: number; fullyExecuted: boolean; lines: { uncovered: number[] } };
    assert.equal(result.status, 'completed', r.stdout.slice(0, 600));
    assert.equal(result.stdout, c.stdout);
    assert.deepEqual(result.lines.uncovered, [2], 'the never-run line stays uncovered');
    assert.equal(result.fullyExecuted, false);
    assert.ok(result.lineCoverage < 1);
  });
}

test('hostile forge: the hook\'s name is salted per run; a function\'s text shows the name derived from the source alone', () => {
  const options = runOptionsSchema.parse({});
  const prepare = () => {
    const p = prepareSnippet('function f() { return 1; }\nf();\n', options, new HostDeadline(60_000));
    assert.ok('instrumented' in p);
    return p.instrumented;
  };
  const one = prepare();
  const two = prepare();
  assert.equal(one.shownHook, two.shownHook, 'what a function shows is the same in every run');
  assert.notEqual(one.hook, two.hook, 'the real name differs from run to run');
  assert.notEqual(one.hook, one.shownHook);
  assert.ok(!one.code.includes(one.shownHook), 'the name shown is not the one the code uses');
});

/**
 * Mutations of the forging snippet: where the name is read from, how it is rebuilt, which entry
 * runs the built code. No mutation may cover line 2.
 */
const READS = ['String(never)', 'never.toString()', 'Function.prototype.toString.call(never)', '`${never}`', 'never + ""', 'Reflect.apply(Function.prototype.toString, never, [])'];
const REBUILDS = ['name', 'a + b', 'name.split("").join("")', '[...name].reverse().reverse().join("")', 'String.fromCharCode(...[...name].map((c) => c.charCodeAt(0)))', 'unescape(escape(name))', 'name.replace(/_/g, "\\\\u005f")'];
const ENTRIES = [
  (expr: string) => `eval(${forgeWith(expr)})`,
  (expr: string) => `eval("eval(" + JSON.stringify(${forgeWith(expr)}) + ")")`,
  (expr: string) => `eval("(0, eval)(" + JSON.stringify(${forgeWith(expr)}) + ")")`,
  (expr: string) => `(0, eval)(${forgeWith(expr)})`,
  (expr: string) => `Function(${forgeWith(expr)})()`,
  (expr: string) => `eval("Function(" + JSON.stringify(${forgeWith(expr)}) + ")()")`,
  (expr: string) => `setTimeout(${forgeWith(expr)}, 0)`,
  (expr: string) => `eval("with ({}) { eval(" + JSON.stringify(${forgeWith(expr)}) + ") }")`,
  (expr: string) => `eval(${forgeWith(expr)}.replace(/eval/g, "ev\\\\u0061l"))`,
];

test('hostile forge: property: no mutation of a forging snippet covers a line that did not run', async () => {
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...READS), fc.constantFrom(...REBUILDS), fc.integer({ min: 0, max: ENTRIES.length - 1 }), async (read, rebuild, entry) => {
      const code = `${NEVER}const name = /__snx_[0-9a-f]+/.exec(${read})[0];
const a = name.slice(0, 4), b = name.slice(4);
try { ${ENTRIES[entry]!(rebuild)}; } catch (e) {}
`;
      const r = await runSnippet(code, { mode: 'none', drive: false, timeoutMs: 60_000 });
      assert.equal(r.status, 'completed', JSON.stringify(r.errors));
      assert.deepEqual(r.lines.uncovered, [2], code);
    }),
    { numRuns: 40, seed: 28 },
  );
});
