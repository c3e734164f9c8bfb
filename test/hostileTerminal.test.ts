import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { jsonText, terminalLine, terminalText } from '../src/report/terminalText.ts';
import { cli, selected } from './helpers.ts';

/**
 * Text from a snippet, a model or a dataset reaches the terminal with its control codes shown, not
 * obeyed. The payloads: clear screen, a window title (OSC 0), a clipboard write (OSC 52), a cursor
 * move, the 8-bit CSI (U+009B), a bidi override (Trojan Source), a lone carriage return, a bell.
 */
const PAYLOADS = ['\u001b[2J', '\u001b]0;pwned\u0007', '\u001b]52;c;ZXZpbA==\u0007', '\u001b[10;10H', '\u009b2J', '\u202e', 'x\ry', '\u0007'];
const ATTACK = PAYLOADS.join('|');
/** Every character a terminal would obey, but LF and TAB. */
const OBEYED = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
/** snipexec's own colours: SGR sequences, ESC [ digits m. */
const OWN_COLOUR = /\u001b\[[0-9;]*m/g;

function assertNothingObeyed(out: string, where: string, colour: boolean): void {
  const rest = colour ? out.replace(OWN_COLOUR, '') : out;
  if (!colour) assert.ok(!out.includes('\u001b'), `${where}: no ESC at all without colour`);
  const m = OBEYED.exec(rest);
  assert.equal(m, null, `${where}: a raw control ${JSON.stringify(m?.[0])} at ${m?.index}: ${JSON.stringify(rest.slice(Math.max(0, (m?.index ?? 0) - 40), (m?.index ?? 0) + 40))}`);
}

interface TerminalCase {
  readonly name: string;
  readonly code: string;
  readonly status: string;
  /** Text the human report must show (the escaped payload), proving it was kept, not dropped. */
  readonly shows: string;
  readonly mode?: string;
}

const shown = terminalLine(ATTACK);
const CASES: readonly TerminalCase[] = [
  { name: 'console output', code: `console.log(${JSON.stringify(ATTACK)});`, status: 'completed', shows: shown },
  { name: 'an error message', code: `throw new Error(${JSON.stringify(ATTACK)});`, status: 'stopped', shows: shown },
  { name: 'an error type', code: `class E extends Error {}\nObject.defineProperty(E.prototype, 'name', { value: ${JSON.stringify(ATTACK)} });\nthrow new E('m');`, status: 'stopped', shows: shown },
  { name: 'the source listing (raw controls in a comment and a string)', code: `// ${ATTACK.replace(/\r/g, '')}\nconst s = "${ATTACK.replace(/\r/g, '')}";\nconsole.log(s.length);`, status: 'completed', shows: terminalLine(ATTACK.replace(/\r/g, '')) },
  // Raw controls in the source (a raw CR would end the string literal): the element and its definition name them.
  { name: 'an injected element named by the snippet', code: `const v = thing["${ATTACK.replace(/\r/g, '')}"];\nconsole.log(typeof v);`, status: 'completed', shows: 'injected definitions', mode: 'trace' },
  { name: 'an unhandled rejection', code: `Promise.reject(new TypeError(${JSON.stringify(ATTACK)}));`, status: 'stopped', shows: shown },
  { name: 'a thrown string', code: `throw ${JSON.stringify(ATTACK)};`, status: 'stopped', shows: shown },
];

for (const c of selected(CASES)) {
  for (const colour of [false, true]) {
    test(`hostile terminal: ${c.name}, ${colour ? 'FORCE_COLOR=1' : 'NO_COLOR=1'}`, () => {
      const { NO_COLOR: _n, FORCE_COLOR: _f, ...rest } = process.env;
      const env: NodeJS.ProcessEnv = colour ? { ...rest, FORCE_COLOR: '1' } : { ...rest, NO_COLOR: '1' };
      const r = cli(['run', '-', '--mode', c.mode ?? 'none', '--timeout', '60000'], c.code, 120_000, env);
      assert.equal(r.signal, null, r.stderr);
      assert.equal(r.code, c.status === 'completed' ? 0 : 1, r.stderr);
      assert.match(r.stdout, new RegExp(`\\(${c.status}[,;]`));
      assertNothingObeyed(r.stdout, 'stdout', colour);
      assertNothingObeyed(r.stderr, 'stderr', false);
      assert.ok(r.stdout.replace(OWN_COLOUR, '').includes(c.shows), `the payload is shown escaped: ${JSON.stringify(c.shows)} in ${JSON.stringify(r.stdout.slice(0, 2000))}`);
    });
  }
}

test('hostile terminal: --json carries no raw ESC, C1 or bidi control, and reads back as the same text', () => {
  const r = cli(['run', '-', '--json', '--mode', 'none'], `console.log(${JSON.stringify(ATTACK)});`);
  assert.equal(r.code, 0, r.stderr);
  assertNothingObeyed(r.stdout.replace(/\n$/, ''), 'json', false);
  assert.equal((JSON.parse(r.stdout) as { stdout: string }).stdout, `${ATTACK}\n`);
});

test('hostile terminal: dataset ids and skipped rows reach stderr escaped, and the batch summary stays clean', () => {
  const dir = mkdtempSync(join(tmpdir(), 'snipexec-terminal-'));
  const dataset = join(dir, 'd.jsonl');
  writeFileSync(dataset, [JSON.stringify({ id: ATTACK, code: 'console.log(1)' }), JSON.stringify({ id: `bad${ATTACK}`, code: 5 }), 'not json \u001b[2J'].join('\n') + '\n');
  for (const json of [false, true]) {
    const r = cli(['batch', dataset, '--mode', 'none', '--out', join(dir, `out-${json}.jsonl`), ...(json ? ['--json'] : [])], undefined, 120_000, { ...process.env, NO_COLOR: '1' });
    assert.equal(r.code, 0, r.stderr);
    assertNothingObeyed(r.stdout, 'stdout', false);
    assertNothingObeyed(r.stderr, 'stderr', false);
    assert.match(r.stderr, /skipped \(id bad\\x1b\[2J/);
  }
  const rows = readFileSync(join(dir, 'out-true.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { id: string });
  assert.deepEqual(rows.map((r) => r.id), [ATTACK], 'the id itself is kept whole in --out');
});

test('hostile terminal: a file name with newlines forges no lcov record', () => {
  const dir = mkdtempSync(join(tmpdir(), 'snipexec-lcov-'));
  const name = 'a.js\nend_of_record\nSF:etc-passwd\nDA:1,1\nLF:1\nLH:1\nend_of_record\nb.js';
  const file = join(dir, name);
  writeFileSync(file, 'const x = 1;\nif (x > 2) {\n  console.log("never");\n}\n');
  const r = cli(['run', file, '--mode', 'none', '--coverage-dir', join(dir, 'cov')], undefined, 120_000, { ...process.env, NO_COLOR: '1' });
  assert.equal(r.code, 0, r.stderr);
  assertNothingObeyed(r.stdout, 'stdout', false);
  const lcov = readFileSync(join(dir, 'cov', 'lcov.info'), 'utf8');
  const sf = lcov.split('\n').filter((l) => l.startsWith('SF:'));
  assert.equal(sf.length, 1, lcov);
  assert.doesNotMatch(lcov, /^SF:etc-passwd/m);
  assert.equal(lcov.split('\n').filter((l) => l === 'end_of_record').length, 1);
  assert.ok(lcov.includes('DA:3,0'), 'the line that never ran is uncovered');
});

test('hostile terminal: the escapes are visible and reversible in kind', () => {
  assert.equal(terminalText('a\u001b[2Jb\n\tc\u009bd\u202ee\r'), 'a\\x1b[2Jb\n\tc\\x9bd\\u202ee\\x0d');
  assert.equal(terminalLine('a\nb'), 'a\\x0ab');
  assert.equal(jsonText({ s: '\u0085\u2028\u202e\u001b' }), '{"s":"\\u0085\\u2028\\u202e\\u001b"}');
  assert.deepEqual(JSON.parse(jsonText({ s: '\u0085\u2028\u202e' })), { s: '\u0085\u2028\u202e' });
});
