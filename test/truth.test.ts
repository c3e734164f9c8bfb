import assert from 'node:assert/strict';
import { test } from 'node:test';
import ivm from 'isolated-vm';
import { runSnippet, type RunOptionsInput, type RunStatus } from '../src/index.ts';
import { SharedCounters } from '../src/sandbox/sharedCounters.ts';
import { measuredLines } from '../src/instrument/coverageModel.ts';
import { instrumentSnippet } from '../src/instrument/instrumentSnippet.ts';
import { parseSnippet } from '../src/parse/parseSnippet.ts';
import { statementLines } from './statementLines.ts';
import { selected } from './helpers.ts';

/**
 * Issue 11, "Status and metrics": each reproduction, with the status and fields it must report.
 * `measured`/`uncovered` are compared exactly when given; `covered` and `notCovered` list lines
 * that must (not) be covered where the rest depends on how far a timed-out run got, which
 * depends on the machine's speed.
 */
/** jQuery's ajaxHandleResponses, as a function body (its parameters and locals are free names). */
const JQUERY_AJAX_HANDLE_RESPONSES = `while (dataTypes[0] === "*") {
  dataTypes.shift();
  if (ct === undefined) {
    ct = s.mimeType || jqXHR.getResponseHeader("Content-Type");
  }
}
if (ct) {
  for (type in contents) {
    if (contents[type] && contents[type].test(ct)) {
      dataTypes.unshift(type);
      break;
    }
  }
}
if (dataTypes[0] in responses) {
  finalDataType = dataTypes[0];
} else {
  for (type in responses) {
    if (!dataTypes[0] || s.converters[type + " " + dataTypes[0]]) {
      finalDataType = type;
      break;
    }
    if (!firstDataType) {
      firstDataType = type;
    }
  }
  finalDataType = finalDataType || firstDataType;
}
if (finalDataType) {
  if (finalDataType !== dataTypes[0]) {
    dataTypes.unshift(finalDataType);
  }
  return responses[finalDataType];
}
`;

interface Row {
  readonly name: string;
  readonly code: string;
  readonly options?: RunOptionsInput;
  readonly status: RunStatus;
  readonly fullyExecuted: boolean;
  readonly measured?: readonly number[];
  readonly uncovered?: readonly number[];
  readonly covered?: readonly number[];
  readonly notCovered?: readonly number[];
  readonly stdout?: string;
}

const ROWS: readonly Row[] = [
  {
    name: 'a timeout is not fully executed, and the loop that never ends is not covered',
    code: 'let i = 0;\nwhile (true) { i++; }\n', options: { timeoutMs: 1500 },
    status: 'timeout', fullyExecuted: false, measured: [1, 2], covered: [1], notCovered: [2],
  },
  {
    name: 'a stopped run is not fully executed, and throw counts once its operand was evaluated',
    code: 'console.log(1);\nthrow new Error("boom");\n',
    status: 'stopped', fullyExecuted: false, measured: [1, 2], uncovered: [], stdout: '1\n',
  },
  {
    name: 'a top level waiting on a promise that never settles is pending',
    code: 'const p = new Promise(() => {});\nawait p;\nconsole.log("after");\n',
    status: 'pending', fullyExecuted: false, measured: [1, 2, 3], uncovered: [2, 3], stdout: '',
  },
  {
    name: 'a pending wait on one line: the line counts, as its first statement ran, but the run is pending',
    code: 'const p = new Promise(() => {}); await p; console.log("after");\n',
    status: 'pending', fullyExecuted: false, measured: [1], uncovered: [], stdout: '',
  },
  {
    name: 'a promise that settles on a timer is not pending',
    code: 'await new Promise((r) => setTimeout(r, 10));\nconsole.log("after");\n',
    status: 'completed', fullyExecuted: true, measured: [1, 2], uncovered: [], stdout: 'after\n',
  },
  {
    name: 'a jQuery function body whose first loop empties an array: no loop forever, line 1 covered',
    code: JQUERY_AJAX_HANDLE_RESPONSES,
    status: 'completed', fullyExecuted: false, covered: [1, 2, 3, 7, 15, 29, 30],
  },
  {
    name: 'a timeout keeps the coverage and the output of what ran before it, also when the loop keeps asking the host',
    code: 'console.log("before");\nlet n = 0;\nwhile (true) { delete globalThis.thing; n += thing ? 1 : 0; }\n', options: { mode: 'dummy', timeoutMs: 1500 },
    status: 'timeout', fullyExecuted: false, measured: [1, 2, 3], covered: [1, 2], notCovered: [3], stdout: 'before\n',
  },
  {
    name: 'a recording proxy does not keep a loop going forever: !== null',
    code: 'let node = head;\nwhile (node !== null && node !== undefined) {\n  node = node.next;\n}\nconsole.log("end");\n',
    status: 'completed', fullyExecuted: true, measured: [1, 2, 3, 5], uncovered: [], stdout: 'end\n',
  },
  {
    name: 'a recording proxy does not keep a loop going forever: in',
    code: "let it = first;\nwhile ('next' in it) {\n  it = it.next;\n}\nconsole.log('end');\n",
    status: 'completed', fullyExecuted: true, measured: [1, 2, 3, 5], uncovered: [], stdout: 'end\n',
  },
  {
    name: 'process.exit(): the lines of every call it was made in ran, as in Node, whatever an exit listener ran after; the rest did not',
    code: "process.on('exit', (code) => console.log('exit', code));\nclass App {\n  constructor() {\n    process.exit(3);\n  }\n}\nnew App();\nconsole.log('after');\n",
    status: 'completed', fullyExecuted: false, measured: [1, 2, 4, 7, 8], uncovered: [8], stdout: 'exit 3\n',
  },
  {
    name: 'a repair that drops both lines of a function leaves nothing to run: syntax-error',
    code: 'function f( {\n  return 1\n',
    status: 'syntax-error', fullyExecuted: false, measured: [], uncovered: [],
  },
  {
    name: 'a line the repair drops stays measured, as uncovered',
    code: 'Run this first:\nconst a = 1;\nconsole.log(a);\n', options: { mode: 'dummy' },
    status: 'completed', fullyExecuted: false, measured: [1, 2, 3], uncovered: [1], stdout: '1\n',
  },
  {
    name: 'a { ... } placeholder over lines moves none: a 10-line snippet is measured on its 10 lines',
    code: 'const a = 1;\nconst o = {\n  ...\n};\nconsole.log(a);\nfunction f() {\n  return 1;\n}\nconst b = f();\nconsole.log(b);\n', options: { mode: 'dummy' },
    status: 'completed', fullyExecuted: true, measured: [1, 2, 5, 6, 7, 9, 10], uncovered: [], stdout: '1\n1\n',
  },
  {
    name: 'so-62555064-1: a name imported and declared again is the snippet\'s syntax error, not an internal error',
    code: "ECMAScript Module syntax:\nimport { v4 as uuidv4 } from 'uuid';\nuuidv4(); // ⇨ '9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d'\nCommonJS syntax:\nconst { v4: uuidv4 } = require('uuid');\nuuidv4(); // ⇨ '1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed'",
    status: 'syntax-error', fullyExecuted: false, measured: [], uncovered: [],
  },
  {
    name: 'a redeclaration the TypeScript parser lets through is repaired by dropping its line, which stays measured',
    code: 'import { v4 as uuidv4 } from "uuid";\nuuidv4();\nconst { v4: uuidv4 } = require("uuid");\nuuidv4();\nconsole.log("x");\nconsole.log("y");\n', options: { mode: 'dummy', lang: 'ts' },
    status: 'completed', fullyExecuted: false, measured: [1, 2, 3, 4, 5, 6], uncovered: [3], stdout: 'x\ny\n',
  },
];

for (const row of selected(ROWS)) {
  test(`truth: ${row.name}`, async () => {
    const r = await runSnippet(row.code, { mode: 'trace', ...row.options });
    assert.equal(r.status, row.status, JSON.stringify(r.errors));
    assert.equal(r.fullyExecuted, row.fullyExecuted, 'fullyExecuted');
    if (row.measured) assert.deepEqual(r.lines.measured, row.measured, 'measured lines');
    if (row.uncovered) assert.deepEqual(r.lines.uncovered, row.uncovered, 'uncovered lines');
    for (const line of row.covered ?? []) assert.ok(r.lines.measured.includes(line) && !r.lines.uncovered.includes(line), `line ${line} covered`);
    for (const line of row.notCovered ?? []) assert.ok(r.lines.uncovered.includes(line), `line ${line} not covered`);
    if (row.stdout !== undefined) assert.equal(r.stdout, row.stdout, 'stdout');
    assert.equal(r.lines.total, r.lines.measured.length);
    assert.equal(r.lines.covered, r.lines.measured.length - r.lines.uncovered.length);
  });
}

test('truth: the coverage counters are shared memory, which the host still reads after the isolate is disposed', async () => {
  const counters = new SharedCounters(2, [2]);
  const isolate = new ivm.Isolate({ memoryLimit: 16 });
  try {
    const context = await isolate.createContext();
    await context.evalClosure('const v = new Float64Array($0); v[1] += 1; v[3] += 2;', [counters.transferable()]);
  } finally {
    isolate.dispose();
  }
  assert.deepEqual(counters.statementCounts(), [0, 1]);
  assert.deepEqual(counters.branchCounts(), [[0, 2]]);
});

/** Snippets where the measured lines once left statements out; the independent count must find none missing. */
const TRICKY = [
  { name: 'exports without a declaration', code: 'const socket = 1;\nexport { socket };\nexport * from "x";\nexport default socket;', lang: 'js' },
  { name: 'a label on its own line', code: 'outer:\nfor (const a of [1]) {\n  inner:\n  for (const b of [2]) {\n    continue outer;\n  }\n}', lang: 'js' },
  { name: 'a placeholder over lines', code: 'const o = {\n  ...\n};\nfoo(a,\n  ...\n);\nbar();', lang: 'js' },
  { name: 'a dropped line', code: 'npm install express\nconst a = 1;\nconsole.log(a);', lang: 'js' },
  { name: 'TypeScript declarations and a class', code: 'interface P { x: number }\ntype Q = P;\nenum E { A }\nclass C {\n  static { init(); }\n  m() {\n    return 1;\n  }\n}', lang: 'ts' },
  { name: 'switch, try, do-while and with', code: 'switch (k) {\n  case 1:\n    a();\n  default:\n    b();\n}\ntry {\n  c();\n} catch {\n  d();\n} finally {\n  e();\n}\ndo {\n  f();\n} while (g());\nwith (o) {\n  h();\n}', lang: 'js' },
] as const;

test('truth: an independent statement count finds no statement line that is not measured', () => {
  for (const c of TRICKY) {
    const parsed = parseSnippet(c.code, c.lang);
    const measured = measuredLines(instrumentSnippet(parsed.ast, parsed.code, { lang: parsed.lang, operatorHooks: false, droppedLines: parsed.droppedLines ?? [] }).map);
    const missing = [...statementLines(parsed.code, parsed.lang)].filter((l) => !measured.includes(l));
    assert.deepEqual(missing, [], c.name);
  }
});
