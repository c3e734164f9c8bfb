import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { cli } from './helpers.ts';

// The guides show real output: each fenced block that starts with `$ npx snipexec …` is run here
// from the repository's root, and every line it shows (but times, which vary) must be in what the
// command prints now. `| jq -c .FIELD` after a --json command is read as that field of the result.
const ROOT = resolve(import.meta.dirname, '..');
const GUIDE = join(ROOT, 'docs/guide');
const noColor = { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' };

interface Shown { readonly file: string; readonly command: string; readonly lines: readonly string[] }

function shownBlocks(): Shown[] {
  const shown: Shown[] = [];
  for (const file of readdirSync(GUIDE).filter((f) => f.endsWith('.md'))) {
    const text = readFileSync(join(GUIDE, file), 'utf8');
    for (const m of text.matchAll(/^```\n\$ (npx snipexec [^\n]+)\n([\s\S]*?)^```/gm)) {
      shown.push({ file, command: m[1]!, lines: m[2]!.split('\n').filter((l) => l.trim() !== '') });
    }
    // Inline: `VALUE` (`npx snipexec … --json | jq -c .FIELD`)
    for (const m of text.matchAll(/`(\[[^`]*\]|\{[^`]*\})` \(`(npx snipexec [^`]+\| jq -c \.\w+)`\)/g)) {
      shown.push({ file, command: m[2]!, lines: [m[1]!] });
    }
  }
  return shown;
}

/** What the command prints: the CLI's stdout, or the field `jq -c .FIELD` would print of it. */
function output(command: string): string {
  const [snipexec, jq] = command.split(' | ');
  const r = cli(snipexec!.replace(/^npx snipexec /, '').split(' '), undefined, 60_000, noColor, ROOT);
  assert.ok(r.code === 0 || r.code === 1, `${command}: exit ${r.code}\n${r.stderr}`);
  if (jq === undefined) return r.stdout;
  const field = /^jq -c \.(\w+)$/.exec(jq);
  assert.ok(field !== null, `${command}: only \`jq -c .FIELD\` is understood`);
  return JSON.stringify((JSON.parse(r.stdout) as Record<string, unknown>)[field[1]!]);
}

const blocks = shownBlocks();

test('guide outputs: the guides show the output of run, its JSON and batch', () => {
  const commands = blocks.map((b) => b.command);
  for (const wanted of ['npx snipexec run examples/line-states.js', 'npx snipexec run examples/fetch-count.js', 'npx snipexec batch examples/']) {
    assert.ok(commands.includes(wanted), `a guide shows $ ${wanted}`);
  }
  assert.ok(commands.some((c) => c.includes('| jq -c .lines')), 'a guide shows the lines of a JSON result');
});

for (const block of blocks) {
  test(`guide outputs: ${block.file}: $ ${block.command}`, () => {
    const real = new Set(output(block.command).split('\n'));
    for (const line of block.lines) {
      if (/\d ms\b|\d s \(|^time /.test(line)) continue;
      assert.ok(real.has(line), `${block.file} shows\n  ${line}\nwhich $ ${block.command} no longer prints; it prints:\n${[...real].join('\n')}`);
    }
  });
}
