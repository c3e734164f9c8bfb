import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';

// The layers of src/ (docs/internals/layers.md): top-level folders import one way, type imports included.
const SRC = resolve(import.meta.dirname, '../src');

/** One import of a src/ module by another: the two files and whether it is erased at run time. */
interface Edge {
  readonly from: string;
  readonly to: string;
  readonly typeOnly: boolean;
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return tsFiles(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every relative specifier of a file: import and export … from (type-only ones too), import() and import('…').T. */
function specifiers(file: string): { specifier: string; typeOnly: boolean }[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: { specifier: string; typeOnly: boolean }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const named = clause?.namedBindings;
      const allTypes = clause !== undefined && clause.name === undefined && named !== undefined && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly);
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: clause?.isTypeOnly === true || allTypes });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const named = node.exportClause;
      const allTypes = named !== undefined && ts.isNamedExports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly);
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly || allTypes });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0])) {
      found.push({ specifier: node.arguments[0].text, typeOnly: false });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push({ specifier: node.argument.literal.text, typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.filter((s) => s.specifier.startsWith('.'));
}

/** The top-level folder of a src/ file; `index.ts` and any other file directly in src/ are `(root)`. */
function layerOf(file: string): string {
  const parts = relative(SRC, file).split(sep);
  return parts.length === 1 ? '(root)' : parts[0]!;
}

function edgesOf(files: readonly string[]): Edge[] {
  return files.flatMap((from) => specifiers(from).map(({ specifier, typeOnly }) => ({ from, to: resolve(dirname(from), specifier), typeOnly })))
    .filter((e) => !relative(SRC, e.to).startsWith('..'));
}

/** A shortest cycle among the layers, as `a -> b -> a` with one import per step; undefined when they form none. */
function findCycle(edges: readonly Edge[]): string | undefined {
  const next = new Map<string, Map<string, Edge>>();
  for (const e of edges) {
    const [a, b] = [layerOf(e.from), layerOf(e.to)];
    if (a === b) continue;
    if (!next.has(a)) next.set(a, new Map());
    if (!next.get(a)!.has(b)) next.get(a)!.set(b, e);
  }
  let best: string[] | undefined;
  for (const start of [...next.keys()].sort()) {
    // Breadth first from start back to start: the shortest cycle through it.
    const before = new Map<string, string>();
    const queue = [start];
    while (queue.length > 0) {
      const at = queue.shift()!;
      for (const to of [...(next.get(at)?.keys() ?? [])].sort()) {
        if (to === start) {
          const path = [start];
          for (let p = at; p !== start; p = before.get(p)!) path.splice(1, 0, p);
          if (!best || path.length < best.length) best = path;
          queue.length = 0;
          break;
        }
        if (!before.has(to)) {
          before.set(to, at);
          queue.push(to);
        }
      }
    }
  }
  if (!best) return undefined;
  const steps = best.map((a, i) => {
    const b = best![(i + 1) % best!.length]!;
    const e = next.get(a)!.get(b)!;
    return `${a} -> ${b} (${relative(SRC, e.from)} imports ${relative(SRC, e.to)})`;
  });
  return `${[...best, best[0]].join(' -> ')}\n  ${steps.join('\n  ')}`;
}

const files = tsFiles(SRC);
const edges = edgesOf(files);
const crossing = (layer: string) => edges.filter((e) => layerOf(e.from) === layer && layerOf(e.to) !== layer);
const describe = (list: readonly Edge[]) => list.map((e) => `${relative(SRC, e.from)} imports ${relative(SRC, e.to)}`).join('\n');

test('layers: the scan sees the imports it checks (type-only ones included)', () => {
  assert.ok(files.length > 300, `${files.length} files under src/`);
  assert.ok(edges.some((e) => layerOf(e.from) === 'engine' && layerOf(e.to) === 'core' && !e.typeOnly), 'engine imports core at run time');
  assert.ok(edges.some((e) => layerOf(e.from) === 'report' && layerOf(e.to) === 'core' && e.typeOnly), 'report imports core types');
});

test('layers: the top-level folders of src/ form no import cycle', () => {
  const cycle = findCycle(edges);
  assert.equal(cycle, undefined, `an import cycle among src/ folders:\n${cycle}`);
});

test('layers: the cycle finder names a cycle when there is one', () => {
  const at = (layer: string) => join(SRC, layer, 'x.ts');
  const made = [...edges, { from: at('core'), to: at('engine'), typeOnly: true }];
  assert.match(findCycle(made) ?? '', /^core -> engine -> core\n/);
});

test('layers: core/ imports nothing of snipexec', () => {
  assert.deepEqual(describe(crossing('core')), '');
});

test('layers: report/ only formats a finished result: it imports core/ and protocol/ alone', () => {
  assert.deepEqual(describe(crossing('report').filter((e) => !['core', 'protocol'].includes(layerOf(e.to)))), '');
});

test('layers: the guest imports protocol/ alone, and protocol/ takes only types from core/ (the guest is bundled from these sources)', () => {
  assert.deepEqual(describe(crossing('guest').filter((e) => layerOf(e.to) !== 'protocol')), '');
  assert.deepEqual(describe(crossing('protocol').filter((e) => layerOf(e.to) !== 'core' || !e.typeOnly)), '');
});
