// The changed code's own literals (src/diff/changedLiterals.ts) and the strings diff builds from them
// (src/diff/literalEdges.ts): a bug that shows only on input holding a token the changed code
// compares or splits on is out of reach of learnt 'example'-like strings.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Definition } from '../src/engine/definition.ts';
import { changedLiterals } from '../src/diff/changedLiterals.ts';
import { capLiteralEdges, literalEdges, literalsByEntry } from '../src/diff/literalEdges.ts';
import { otherCallsArgument } from '../src/diff/throughDeclaration.ts';
import { runDiff, type DiffReport } from '../src/diff/runDiff.ts';
import { parseSnippet } from '../src/parse/parseSnippet.ts';
import { gitRepo } from './helpers.ts';

const literals = (code: string, changed: number[]) => changedLiterals(parseSnippet(code), new Set(changed)).map((l) => [l.value, l.line, l.use, l.changed]);

test('changedLiterals: a changed line\'s comparison operands, case labels and string-search arguments; not other strings', () => {
  const code = [
    'function zone(format, input) {', // 1
    '  switch (format) {', // 2
    "    case 'Z':", // 3: changed
    "      if (input[0] === '-') return input.split(':');", // 4: changed
    "      return input.indexOf('+') + input.replace('T', ' ') + ' hours';", // 5: changed
    "    case 'L': return `${input}`.startsWith(`at`);", // 6
    '  }', // 7
    "  if (typeof format === 'string') throw new Error('unknown format ' + format);", // 8: changed
    '}',
  ].join('\n');
  assert.deepEqual(literals(code, [3, 4, 5, 8]), [
    ['Z', 3, 'compare', true],
    ['-', 4, 'compare', true],
    [':', 4, 'search', true],
    ['+', 5, 'search', true],
    ['T', 5, 'search', true],
  ], "not ' hours' (an operand of +), nor a type's name (typeof), nor the error's message");
  assert.deepEqual(literals(code, [6]), [['L', 6, 'compare', true], ['at', 6, 'search', true]], 'a template without substitutions is a literal');
  assert.deepEqual(literals(code, []), []);
  const patterns = "function f(s) {\n  return [s.split(/,/), s.replace(/^\\?/, ''), s.match(/\\d+/), s.split(/a|b/), s.replace(/&amp;$/g, '&')];\n}";
  assert.deepEqual(literals(patterns, [2]), [[',', 2, 'search', true], ['?', 2, 'search', true], ['&amp;', 2, 'search', true]], 'a regular expression that matches one string, anchors aside; not a real pattern');
});

test('changedLiterals: the literals of the unchanged lines a changed line depends on: the definitions of the locals it reads (transitively, above it) and the tests around it', () => {
  const code = [
    'function parseValues(str, options) {', // 1
    "  var parts = str.split('&');", // 2
    '  for (var i = 0; i < parts.length; ++i) {', // 3
    '    var part = parts[i];', // 4
    "    var bracket = part.indexOf(']=');", // 5
    "    var pos = bracket === -1 ? part.indexOf('=') : bracket + 1;", // 6
    "    if (part.startsWith('#')) continue;", // 7
    "    if (options.comma) {", // 8
    '      var value = part.slice(pos + 1);', // 9: changed
    "      console.log(value.split(','));", // 10: changed
    '    }',
    "    var later = part === 'x';", // 12: below the change, not a definition it reads
    '  }',
    '}',
  ].join('\n');
  assert.deepEqual(literals(code, [9, 10]), [
    ['&', 2, 'search', false],
    [']=', 5, 'search', false],
    ['=', 6, 'search', false],
    [',', 10, 'search', true],
  ], "not '#' (a test the changed lines are not inside), nor 'x' (below them)");
});

/** A learnt string input of a driven function, as the definition book holds it. */
const learnt = (id: string, source: string, category: 'string' | 'object' = 'string') => [id, { id, kind: 'argument', line: 1, proposal: { source, refs: [], category } }] as const;

test('literalEdges: per string input of the function around the literals, the learnt string with each literal appended, all joined (the dependencies first), alone and prepended; at most the cap', () => {
  const defs = new Map([learnt('parse#arg0', '"ab"'), learnt('parse#arg1', '{}', 'object'), learnt('other#arg0', '"zz"'), learnt('parse#arg0.length#cb0#arg0', '"no"')]) as unknown as Map<string, Definition>;
  const lits = [{ value: ',', line: 9, use: 'search' as const, changed: true }, { value: '=', line: 6, use: 'search' as const, changed: false }];
  const edges = literalEdges(defs, [{ target: 'parse', literals: lits }], 20);
  assert.deepEqual(edges.map((e) => [e.element, e.source, e.literal]), [
    ['parse#arg0', '"ab,"', ','],
    ['parse#arg0', '"ab="', '='],
    ['parse#arg0', '"ab=ab,ab"', '= ,'],
    ['parse#arg0', '","', ','],
    ['parse#arg0', '"="', '='],
    ['parse#arg0', '",ab"', ','],
    ['parse#arg0', '"=ab"', '='],
  ], 'only the string inputs of the function the literals are in; not an argument outside code passes to a callback');
  assert.equal(literalEdges(defs, [{ target: 'parse', literals: lits }], 2).length, 2);
  const holding = new Map([learnt('parse#arg0', '"a=b"')]) as unknown as Map<string, Definition>;
  assert.deepEqual(literalEdges(holding, [{ target: 'parse', literals: lits }], 20).map((e) => e.source), ['"a=b,"', '","', '",a=b"'], 'a literal the learnt string holds was met by the learnt run');
});

test('literalsByEntry: each literal goes to the innermost driven function around it (an IIFE\'s member, not the IIFE); one outside all is left out', () => {
  const lit = (line: number) => ({ value: 'Z', line, use: 'compare' as const, changed: true });
  const entries = [{ from: 1, to: 100, target: '<anonymous>@1' }, { from: 10, to: 20, target: '<anonymous>@1.format' }];
  assert.deepEqual(literalsByEntry([lit(12), lit(50), lit(200)], entries).map((e) => [e.target, e.literals.map((l) => l.line)]), [['<anonymous>@1.format', [12]], ['<anonymous>@1', [50]]]);
});

test('capLiteralEdges: the edges built from literals past the cap are left out, whatever the scenario; the others stay', () => {
  const edge = (source: string, literal?: string) => ({ edge: { element: 'f#arg0', source, category: 'string' as const, ...(literal ? { literal } : {}) } });
  const list = [edge('"a,"', ','), edge('undefined'), edge('"b,"', ','), edge('null'), edge('","', ',')];
  assert.deepEqual(capLiteralEdges(list, 2).map((x) => x.edge.source), ['"a,"', 'undefined', '"b,"', 'null']);
});

/** A repository with `before` committed as `file` and `after` in the working tree: the diff's report. */
async function change(file: string, before: string, after: string): Promise<DiffReport> {
  const dir = gitRepo({ [file]: before });
  writeFileSync(join(dir, file), after);
  return runDiff({ cwd: dir });
}

test('diff: a change that breaks only on input holding its own token is found with a string built from the literal; the base needed no branch for it', async () => {
  // The change reads the digits before a trailing 'Z' unguarded: 'exampleZ' breaks it; the base took no branch on it.
  const before = "exports.zone = function (text) {\n  var last = text.charAt(text.length - 1);\n  return last + text;\n};\n";
  const after = "exports.zone = function (text) {\n  var last = text.charAt(text.length - 1);\n  if (last === 'Z') return text.match(/(\\d+)Z$/)[1];\n  return last + text;\n};\n";
  const report = await change('zone.js', before, after);
  const f = report.findings.find((x) => x.line === 3 && x.message === "Cannot read properties of null (reading '1')");
  assert.ok(f, JSON.stringify(report.findings.map((x) => [x.line, x.message, x.evidence.edge])));
  assert.equal(f.how, 'edge');
  assert.equal(f.evidence.base, 'returned');
  assert.match(f.evidence.edge?.source ?? '', /Z"$/);
});

test('diff: a string built from the literal that breaks the base version the same way is no finding', async () => {
  const before = "exports.value = function (text) {\n  var parts = text.split('=');\n  return parts.length > 1 ? parts[1].match(/\\d+/)[0] : text;\n};\n";
  const after = "exports.value = function (text) {\n  var parts = text.split('=');\n  return parts.length > 1 ? parts[1].match(/\\d+/)[0].trim() : text;\n};\n";
  const report = await change('value.js', before, after);
  assert.deepEqual(report.findings.map((x) => [x.line, x.message]), []);
});

test('diff: a function an IIFE declares and nothing exports is replayed by handing it out of the loaded text: its reproduction fails on the changed file and passes on the base', async () => {
  const before = [
    '(function () {',
    '  function head(format) {',
    "    if (format === 'Z') return 'zone';",
    '    return format.charAt(0);',
    '  }',
    '  module.exports = function api(format) { return head(String(format)); };',
    '})();',
    '',
  ].join('\n');
  const after = before.replace("    if (format === 'Z') return 'zone';\n", "    if (format === 'Z') return format.match(/\\d/)[0];\n");
  const dir = gitRepo({ 'iife.js': before });
  writeFileSync(join(dir, 'iife.js'), after);
  const report = await runDiff({ cwd: dir, reproductions: true });
  const finding = report.findings.find((f) => f.line === 3 && f.message === "Cannot read properties of null (reading '0')");
  assert.ok(finding?.reproduction, JSON.stringify(report.findings.map((f) => [f.line, f.message, f.reproduction !== undefined])));
  const file = join(dir, 'repro.test.cjs');
  writeFileSync(file, finding.reproduction);
  writeFileSync(join(dir, 'base.js'), before);
  const { NODE_TEST_CONTEXT: _, ...outside } = process.env;
  const run = (env: NodeJS.ProcessEnv) => spawnSync(process.execPath, ['--test', file], { cwd: dir, encoding: 'utf8', env: { ...outside, ...env } });
  const changed = run({});
  assert.equal(changed.status, 1, changed.stdout);
  assert.match(changed.stdout, /TypeError: Cannot read properties of null \(reading '0'\)/);
  const base = run({ SNIPEXEC_TARGET: 'base.js' });
  assert.equal(base.status, 0, base.stdout);
});

test('otherCallsArgument: an IIFE member\'s reproduction leaves out the arguments learnt for the other driven functions (the IIFE\'s own included), not its own nor what lies outside', () => {
  const driven = new Set(['<anonymous>@8', '<anonymous>@8.makeDate', '<anonymous>@8.makeArray', 'exports.parse']);
  const other = (id: string, called = '<anonymous>@8.makeDate') => otherCallsArgument(id, called, driven);
  assert.equal(other('<anonymous>@8.makeArray#arg1[0].match'), true);
  assert.equal(other('<anonymous>@8#arg0'), true);
  assert.equal(other('<anonymous>@8.makeDate#arg1'), false);
  assert.equal(other('new <anonymous>@8#arg0.getMonth'), false, 'not a driven function\'s argument');
  assert.equal(other('require(\'fs\')'), false);
  assert.equal(other('exports.parse#arg0', 'exports.parse'), false, 'a function the exports reach replays with the run\'s values, as before');
});
