import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import * as t from '@babel/types';
import { HOST_SHAPES, type HostShape } from '../eval/hostShapes.ts';
import { instrumentSnippet } from '../src/instrument/instrumentSnippet.ts';
import { parseSnippet } from '../src/parse/parseSnippet.ts';

const { NodePath } = createRequire(import.meta.url)('@babel/traverse') as { NodePath: { get: (...args: unknown[]) => unknown } };

/**
 * Host work, counted rather than timed, so the count is the same on any machine: every generic walk
 * over a node (Babel's traverse, `traverseFast`, the passes' own walks) reads the node type's
 * VISITOR_KEYS entry; every NodePath made or looked up (siblings, `path.get`) goes through
 * `NodePath.get`; every usage fact compared goes through JSON.stringify.
 */
function countHostWork(run: () => void): number {
  let work = 0;
  const keys = t.VISITOR_KEYS as Record<string, string[]>;
  const saved = Object.entries(keys);
  for (const [type, value] of saved) Object.defineProperty(keys, type, { get: () => { work++; return value; }, configurable: true, enumerable: true });
  const get = NodePath.get;
  NodePath.get = function (this: unknown, ...args: unknown[]) { work++; return get.apply(this, args); };
  const stringify = JSON.stringify;
  JSON.stringify = ((...args: Parameters<typeof JSON.stringify>) => { work++; return stringify(...args); }) as typeof JSON.stringify;
  try {
    run();
  } finally {
    JSON.stringify = stringify;
    NodePath.get = get;
    for (const [type, value] of saved) Object.defineProperty(keys, type, { value, writable: true, configurable: true, enumerable: true });
  }
  return work;
}

function hostWork(shape: HostShape, lines: number): number {
  const code = HOST_SHAPES[shape](lines);
  return countHostWork(() => {
    const parsed = parseSnippet(code, 'js');
    instrumentSnippet(parsed.ast, parsed.code, { lang: 'js', operatorHooks: true, callUncalled: true });
  });
}

for (const shape of Object.keys(HOST_SHAPES) as HostShape[]) {
  test(`robustness: host work on ${shape} grows linearly with the snippet (4× the lines, at most 4.6× the work)`, () => {
    const small = hostWork(shape, 150);
    const large = hostWork(shape, 600);
    assert.ok(small > 150, `the meter counts work (${small})`);
    // Quadratic work would give 16×; n·log n about 4.5×.
    assert.ok(large / small <= 4.6, `${shape}: ${small} units at 150 lines, ${large} at 600 (${(large / small).toFixed(2)}×)`);
  });
}
