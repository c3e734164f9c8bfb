import { parse } from '@babel/parser';
import _traverse, { type NodePath } from '@babel/traverse';
import type * as t from '@babel/types';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pluginsFor } from './moduleOutline.ts';

const traverse = ((_traverse as unknown as { default?: unknown }).default ?? _traverse) as typeof _traverse.default;

/**
 * Which functions of a module read module state: a top-level `let` or `var` that some function
 * assigns (json5's lexer keeps `pos`, `c`, `lexState` so). A call of such a function gives what
 * the earlier calls left there, which its test, run alone, does not have. A read does not count
 * when the function itself assigned the variable before it (in source order) and no function
 * outside it assigns it: that is the function's own scratch, set up on every call.
 */
export class ModuleState {
  readonly #programDir: string;
  readonly #modules = new Map<string, StateUse>();

  constructor(programDir: string) {
    this.#programDir = programDir;
  }

  /**
   * The state variables the function starting on `line` of `module` reads and that a function the
   * program ran (`ran(line)`: a call of the function starting on that line was recorded) assigns.
   * A variable no function ran to assign holds what the module's loading gave it, in a test too.
   */
  readsAt(module: string, line: number, ran: (line: number) => boolean): readonly string[] {
    let use = this.#modules.get(module);
    if (use === undefined) {
      use = this.#analyse(module);
      this.#modules.set(module, use);
    }
    return (use.readers.get(line) ?? []).filter((name) => (use.writers.get(name) ?? []).some(ran));
  }

  #analyse(module: string): StateUse {
    try {
      return stateUse(readFileSync(join(this.#programDir, module), 'utf8'), module);
    } catch {
      return { readers: new Map(), writers: new Map() }; // A module that cannot be read or parsed: gen-tests says so elsewhere.
    }
  }
}

/** A module's state variables: by a function's start line, those it (or a function nested in it) reads; by variable, the start lines of the functions that assign it. */
export interface StateUse {
  readonly readers: ReadonlyMap<number, readonly string[]>;
  readonly writers: ReadonlyMap<string, readonly number[]>;
}

export function stateUse(source: string, fileName: string): StateUse {
  const ast = parse(source, { sourceType: 'unambiguous', allowReturnOutsideFunction: true, allowAwaitOutsideFunction: true, plugins: pluginsFor(fileName) });
  const readers = new Map<number, Set<string>>();
  const writerLines = new Map<string, number[]>();
  traverse(ast, {
    Program(path) {
      for (const [name, binding] of Object.entries(path.scope.bindings)) {
        if (binding.kind !== 'let' && binding.kind !== 'var') continue;
        const writers = binding.constantViolations.map((w) => w.getFunctionParent()).filter((f): f is NodePath<t.Function> => f !== null);
        if (writers.length === 0) continue;
        writerLines.set(name, [...new Set(writers.map((w) => w.node.loc?.start.line ?? 0))]);
        for (const read of binding.referencePaths) {
          if (onlyUpdated(read)) continue;
          for (let fn = read.getFunctionParent(); fn !== null; fn = fn.parentPath.getFunctionParent()) {
            if (ownScratch(fn, read, binding.constantViolations, writers)) break;
            const line = fn.node.loc?.start.line;
            if (line === undefined) continue;
            const names = readers.get(line) ?? new Set<string>();
            names.add(name);
            readers.set(line, names);
          }
        }
      }
      path.stop();
    },
  });
  return { readers: new Map([...readers].map(([line, names]) => [line, [...names].sort()])), writers: writerLines };
}

/** `line++`, `column += n` as a statement: the variable is read only to be assigned, so the function's result does not depend on it. */
function onlyUpdated(read: NodePath): boolean {
  const update = read.parentPath;
  if (update === null) return false;
  const updating = update.isUpdateExpression() || (update.isAssignmentExpression() && update.node.operator !== '=' && update.node.left === read.node);
  if (!updating) return false;
  const user = update.parentPath;
  return user !== null && (user.isExpressionStatement() || (user.isForStatement() && user.node.update === update.node));
}

/** Whether `fn` assigns the variable before `read` in its own body, and no function outside `fn` assigns it. */
function ownScratch(fn: NodePath<t.Function>, read: NodePath, violations: readonly NodePath[], writers: readonly NodePath<t.Function>[]): boolean {
  if (writers.some((w) => w.node !== fn.node && !w.isDescendant(fn))) return false;
  const at = read.node.start ?? 0;
  return violations.some((v) => v.getFunctionParent()?.node === fn.node && (v.node.end ?? Infinity) <= at);
}
