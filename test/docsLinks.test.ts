import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';

// The user docs (README.md and docs/): a short README, no commit hashes or issue numbers (they
// mean nothing to a user; eval/README.md keeps them with its measurements), and no dead relative link.
const ROOT = resolve(import.meta.dirname, '..');

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return markdownFiles(path);
    return e.name.endsWith('.md') ? [path] : [];
  });
}

const USER_DOCS = [join(ROOT, 'README.md'), ...markdownFiles(join(ROOT, 'docs'))];
const name = (file: string) => relative(ROOT, file);

/** A commit hash as docs cite one: 7 to 40 hex characters, at least one a digit and one a letter. */
const HASH = /\b(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b/g;
/** "issue 13", "issues 11 and 12", "#28". */
const ISSUE = /\bissues? #?\d+|(?<![\w&])#\d+\b/gi;

/** Markdown outside fenced code blocks and inline code spans, where a hash or a link means what it says. */
function prose(text: string): string {
  return text.replace(/^```[^\n]*\n[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchor(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

function anchorsOf(file: string): Set<string> {
  const outsideFences = readFileSync(file, 'utf8').replace(/^```[^\n]*\n[\s\S]*?^```/gm, '');
  const headings = outsideFences.match(/^#{1,6} .*$/gm) ?? [];
  return new Set(headings.map((h) => anchor(h.replace(/^#+ /, ''))));
}

/** The targets of a file's inline links and images, `[text](target)`, outside code. */
function linkTargets(text: string): string[] {
  return [...prose(text).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!);
}

test('docs: README.md is at most 200 lines', () => {
  const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').length - 1;
  assert.ok(lines <= 200, `README.md has ${lines} lines`);
});

test('docs: the user docs cite no commit hash and no issue number', () => {
  assert.ok(USER_DOCS.length >= 15, `${USER_DOCS.length} files`);
  for (const file of USER_DOCS) {
    const text = readFileSync(file, 'utf8');
    // Commit hashes hide in code spans too (`at 5641b09`); issue numbers are prose.
    assert.deepEqual(text.match(HASH) ?? [], [], `${name(file)}: commit hashes`);
    assert.deepEqual(prose(text).match(ISSUE) ?? [], [], `${name(file)}: issue numbers`);
  }
});

test('docs: every relative link of README.md and docs/ points to a file that exists, and its #anchor to a heading there', () => {
  let links = 0;
  for (const file of USER_DOCS) {
    for (const target of linkTargets(readFileSync(file, 'utf8'))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const [path, fragment] = target.split('#') as [string, string | undefined];
      const resolved = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
      assert.ok(existsSync(resolved), `${name(file)}: ${target} does not exist`);
      if (fragment !== undefined && statSync(resolved).isFile() && resolved.endsWith('.md')) {
        assert.ok(anchorsOf(resolved).has(fragment), `${name(file)}: ${target}: no heading #${fragment} in ${name(resolved)}`);
      }
      links += 1;
    }
  }
  assert.ok(links > 20, `${links} links checked`);
});

test('docs: the README keeps the heading the SARIF rule\'s helpUri points to', () => {
  const readmeAnchor = /const README_ANCHOR = '([^']+)'/.exec(readFileSync(join(ROOT, 'src/diff/toSarif.ts'), 'utf8'))?.[1];
  assert.ok(readmeAnchor !== undefined, 'src/diff/toSarif.ts names its README anchor');
  assert.ok(anchorsOf(join(ROOT, 'README.md')).has(readmeAnchor), `README.md has a heading that anchors as #${readmeAnchor}`);
});

test('docs: the README shows the checks .ci/run makes after installing, as it runs them (typecheck, the test command)', () => {
  const ci = readFileSync(join(ROOT, '.ci/run'), 'utf8');
  // The commands after the install: every npm command but the install itself, with its environment.
  const checks = ci.split('\n').map((l) => l.trim()).filter((l) => /^([A-Z_]+=\S+ )*npm /.test(l) && !/^npm (ci|install)\b/.test(l));
  assert.ok(checks.some((c) => / npm test$/.test(c) || c === 'npm test'), `.ci/run runs the tests: ${checks.join(' | ')}`);
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  // The lines inside fenced code blocks (a fence opens and closes on a line starting with ```), comments cut.
  const codeLines = new Set<string>();
  let inCode = false;
  for (const line of readme.split('\n')) {
    if (line.startsWith('```')) inCode = !inCode;
    else if (inCode) codeLines.add(line.replace(/\s+#.*$/, '').trim());
  }
  for (const check of checks) assert.ok(codeLines.has(check), `README.md shows \`${check}\` in a code block, as .ci/run runs it`);
});
