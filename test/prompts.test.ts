import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { CATEGORIES } from '../src/values/types.ts';

const dir = new URL('../prompts/', import.meta.url);

test('prompts: the classifier prompt names every category of the dummy table, once', () => {
  const text = readFileSync(new URL('classifier.md', dir), 'utf8');
  const listed = [...text.matchAll(/^- ([A-Za-z]+):/gm)].map((m) => m[1]);
  assert.deepEqual(listed, [...CATEGORIES]);
});

test('prompts: six few-shot examples, each in the three steps', () => {
  const examples = readdirSync(new URL('examples/', dir)).filter((f) => f.endsWith('.md'));
  assert.equal(examples.length, 6);
  for (const f of examples) {
    const text = readFileSync(new URL(`examples/${f}`, dir), 'utf8');
    assert.match(text, /\/\/ 1\. require\/import[\s\S]*\/\/ 2\. define[\s\S]*\/\/ 3\. (assign|fix)[\s\S]*ELEMENT = /, f);
  }
});
