import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { runSnippet } from '../src/index.ts';
import { cli } from './helpers.ts';

// The README's quick start shows real output: its commands are run here on its files, and every
// line it shows (but times, which vary, and the "…" of a cut) must be in what they print now.
const README = readFileSync(resolve(import.meta.dirname, '../README.md'), 'utf8');
const quickStart = README.slice(README.indexOf('## Quick start'), README.indexOf('\n## ', README.indexOf('## Quick start') + 1));
const blocks = [...quickStart.matchAll(/^```(\w*)\n([\s\S]*?)^```/gm)].map((m) => ({ lang: m[1]!, text: m[2]! }));
const noColor = { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' };

/** The lines a block shows after `$ COMMAND` and before the next `$`, to be found in the real output. */
function shownOutput(command: string): string[] {
  const block = blocks.find((b) => b.text.includes(`$ ${command}\n`));
  assert.ok(block !== undefined, `the quick start shows $ ${command}`);
  const after = block.text.slice(block.text.indexOf(`$ ${command}\n`) + command.length + 3);
  const lines = after.slice(0, after.search(/^\$ |$(?![\s\S])/m)).split('\n');
  return lines.filter((l) => l.trim() !== '' && !l.includes('…') && !/\d ms\b|\d s \(/.test(l));
}

function assertShown(command: string, output: string): void {
  const shown = shownOutput(command);
  assert.ok(shown.length > 0, `$ ${command} shows output`);
  const real = new Set(output.split('\n'));
  for (const line of shown) assert.ok(real.has(line), `$ ${command}: the README shows\n  ${line}\nwhich it no longer prints; it prints:\n${output}`);
}

const dir = mkdtempSync(join(tmpdir(), 'snipexec-quickstart-'));
const snippet = blocks.find((b) => b.lang === 'js')!.text;
writeFileSync(join(dir, 'snippet.js'), snippet);

test('readme quick start: `run snippet.js` prints the lines the README shows', () => {
  const r = cli(['run', 'snippet.js'], undefined, 60_000, noColor, dir);
  assert.equal(r.code, 0, r.stderr);
  assertShown('npx snipexec run snippet.js', r.stdout);
});

test('readme quick start: the completed program prints what the README shows, and the JSON starts as shown', () => {
  const r = cli(['run', 'snippet.js', '--json', '--emit', 'completed.js'], undefined, 60_000, noColor, dir);
  assert.equal(r.code, 0, r.stderr);
  writeFileSync(join(dir, 'result.json'), r.stdout);
  const program = spawnSync(process.execPath, ['completed.js'], { cwd: dir, encoding: 'utf8' });
  assertShown('npx snipexec run snippet.js --json --emit completed.js > result.json && node completed.js', program.stdout);
  const head = /^\$ head -c (\d+) result\.json; echo$/m.exec(README);
  assert.ok(head !== null, 'the quick start shows the head of result.json');
  assertShown(`head -c ${head[1]} result.json; echo`, r.stdout.slice(0, Number(head[1])));
});

test('readme quick start: `batch snippets.jsonl` prints the summary the README shows', () => {
  writeFileSync(join(dir, 'snippets.jsonl'), `${shownOutput('cat snippets.jsonl').join('\n')}\n`);
  const r = cli(['batch', 'snippets.jsonl', '--out', 'results.jsonl'], undefined, 60_000, noColor, dir);
  assert.equal(r.code, 0, r.stderr);
  assertShown('npx snipexec batch snippets.jsonl --out results.jsonl', r.stdout);
  assert.equal(readFileSync(join(dir, 'results.jsonl'), 'utf8').trim().split('\n').length, 2);
});

test('readme: the before/after example is the program --emit writes for the "before" snippet', () => {
  const js = [...README.matchAll(/^```js\n([\s\S]*?)^```/gm)].map((m) => m[1]!);
  const [before, after] = js;
  writeFileSync(join(dir, 'before.js'), before!);
  const r = cli(['run', 'before.js', '--json', '--emit', 'after.js'], undefined, 60_000, noColor, dir);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(readFileSync(join(dir, 'after.js'), 'utf8'), after);
  const program = spawnSync(process.execPath, ['after.js'], { cwd: dir, encoding: 'utf8' });
  assert.equal(program.stdout, 'admin NAME\n', 'the README says it prints admin NAME');
  assert.match(README, /it prints `admin NAME`/);
});

test('readme: the library example prints what its comments say', async () => {
  const api = README.slice(README.indexOf('## Library API'));
  const example = /^```js\n([\s\S]*?)^```/m.exec(api)![1]!;
  const call = /runSnippet\(\s*'((?:[^'\\]|\\.)*)',\s*(\{[^}]*\}),?\s*\)/.exec(example);
  assert.ok(call !== null, 'the example calls runSnippet(code, options)');
  const code = JSON.parse(`"${call[1]!.replace(/"/g, '\\"')}"`) as string;
  const options = Function(`return (${call[2]!});`)() as Record<string, unknown>;
  const result = await runSnippet(code, options);
  const comments = [...example.matchAll(/\/\/ (.*)$/gm)].map((m) => m[1]!);
  assert.equal(comments[0], `${result.status} ${result.lineCoverage} ${JSON.stringify(result.stdout)}`);
  assert.deepEqual(comments.slice(1), result.injections.map((i) => i.source));
});
