import assert from 'node:assert/strict';
import { test } from 'node:test';
import { flatList } from '../src/guest/runtime/ownData.ts';
import { runSnippet } from '../src/index.ts';

/** The runtime's position table (src/guest/runtime/index.ts): a flat list of numbers, taken without a prototype and without visiting its elements. */
test('flatList: the same list, its elements as they were, without a prototype', () => {
  const table = [3, 5, 1, 1, 4, 2, 2, 0];
  const flat = flatList(table);
  assert.equal(flat, table);
  assert.equal(Object.getPrototypeOf(flat), null);
  assert.deepEqual([...Array.prototype.values.call(flat)], [3, 5, 1, 1, 4, 2, 2, 0]);
  assert.equal(flat.length, 8);
});

test('flatList: a stack frame of a snippet with a long position table still prints its original line', async () => {
  // Enough statements for a table of thousands of numbers, then a throw on the last line.
  const code = `${Array.from({ length: 400 }, (_, i) => `const v${i} = [${i}].map((x) => x + 1);`).join('\n')}\ntry { null.x; } catch (e) { console.log(e.stack.split('\\n')[1]); }\n`;
  const result = await runSnippet(code, { mode: 'none' });
  assert.equal(result.status, 'completed');
  assert.match(result.stdout, /snippet\.js:401:/);
});
