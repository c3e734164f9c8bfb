import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runSnippet, type RunOptionsInput, type RunStatus } from '../src/index.ts';
import { selected } from './helpers.ts';

/**
 * Issue 11, "Status and metrics": each reproduction, with the status and fields it must report.
 * `measured`/`uncovered` are compared exactly when given; `covered` and `notCovered` list lines
 * that must (not) be covered where the rest depends on how far a timed-out run got, which
 * depends on the machine's speed.
 */
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
    code: 'let i = 0;\nwhile (true) { i++; }\n', options: { timeoutMs: 300 },
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
