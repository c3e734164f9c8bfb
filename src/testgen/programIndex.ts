import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { callKey, type ReachedFunction } from '../record/callTrace.ts';
import { outlineModule, type ClassShape, type ModuleOutline, type TopLevelBinding } from './moduleOutline.ts';
import { skip, type SkipReason } from './skipReasons.ts';

/** A class a generated test reaches as `reach(module)[name]`. */
export interface ClassRef {
  readonly module: string;
  readonly name: string;
  readonly shape: ClassShape;
}

const SOURCE_FILE = /\.(?:[cm]?[jt]s|[jt]sx)$/i;
// Files scanned for a class no traced module defines; a program bigger than this is searched no further.
const MAX_SCANNED_FILES = 2_000;

// Built-in classes whose instances hold internal slots that Object.create does not make.
const SLOTTED = new Set(['Map', 'Set', 'WeakMap', 'WeakSet', 'WeakRef', 'Array', 'Date', 'RegExp', 'Promise', 'ArrayBuffer', 'SharedArrayBuffer', 'DataView', 'Buffer', 'URL', 'URLSearchParams', 'EventTarget', 'Headers', 'Request', 'Response']);

/**
 * The program's modules as gen-tests sees them: each module's outline (parsed once, on demand),
 * and where a class of a given name is defined at the top level.
 */
export class ProgramIndex {
  readonly #programDir: string;
  readonly #traced: readonly string[];
  readonly #skipDirs: ReadonlySet<string>;
  readonly #outlines = new Map<string, ModuleOutline | SkipReason>();
  #scanned: readonly string[] | undefined;

  readonly #reached: ReadonlyMap<string, ReachedFunction>;

  /**
   * `traced`: the modules the trace names, searched first for a class; `skipDirs`: absolute
   * directories never scanned (the output directory); `reached`: the trace's functions reached
   * through a property path at the program's exit.
   */
  constructor(programDir: string, traced: readonly string[], skipDirs: readonly string[] = [], reached: readonly ReachedFunction[] = []) {
    this.#programDir = programDir;
    this.#traced = traced;
    this.#skipDirs = new Set(skipDirs);
    this.#reached = new Map(reached.map((r) => [`${callKey(r.module, r.qualname)}${r.maker === undefined ? '' : `@${r.maker}`}`, r]));
  }

  /** How a test reaches the function `qualname` of `module` through a property path, when the recording found one. */
  reached(module: string, qualname: string, maker?: number): ReachedFunction | undefined {
    return (maker === undefined ? undefined : this.#reached.get(`${callKey(module, qualname)}@${maker}`)) ?? this.#reached.get(callKey(module, qualname));
  }

  /** Whether the function (not an arrow) starting on `line` of `module` uses `this` (moduleOutline's `usesThis`): a function constructor or a method. */
  usesThis(module: string, line: number): boolean {
    const outline = this.outline(module);
    return 'usesThis' in outline && outline.usesThis.has(line);
  }

  /** Whether the function (not an arrow) starting on `line` of `module` assigns or deletes a member of `this`: a mock of it would not. */
  changesThis(module: string, line: number): boolean {
    const outline = this.outline(module);
    return 'changesThis' in outline && outline.changesThis.has(line);
  }

  /** The program's directory, absolute. */
  get programDir(): string {
    return this.#programDir;
  }

  /** The module's outline, or why it has none (missing, unreadable, does not parse). */
  outline(module: string): ModuleOutline | SkipReason {
    let outline = this.#outlines.get(module);
    if (outline === undefined) {
      outline = this.#read(module);
      this.#outlines.set(module, outline);
    }
    return outline;
  }

  #read(module: string): ModuleOutline | SkipReason {
    let source: string;
    try {
      source = readFileSync(join(this.#programDir, module), 'utf8');
    } catch (error) {
      return skip('missing-source', `cannot read ${module} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
    try {
      return outlineModule(source, module);
    } catch (error) {
      return skip('missing-source', `${module} does not parse now: ${(error as Error).message}`);
    }
  }

  /**
   * The top-level class `name`, searched in `near`, then the traced modules, then the program's
   * other source files; or why it cannot be reached or rebuilt with Object.create.
   */
  locateClass(name: string, near: string): ClassRef | SkipReason {
    const inModule = (module: string): ClassRef | undefined => {
      const outline = this.outline(module);
      const binding = 'bindings' in outline ? outline.bindings.get(name) : undefined;
      if (binding?.kind === 'class') return { module, name, shape: binding.shape };
      // A function constructor: its objects are rebuilt from its prototype as a class's are.
      return binding?.kind === 'function' && binding.constructs !== undefined ? { module, name, shape: binding.constructs } : undefined;
    };
    const found = inModule(near) ?? this.#traced.map(inModule).find((ref) => ref !== undefined) ?? this.#programFiles().map(inModule).find((ref) => ref !== undefined);
    return found ?? skip('unreachable-class', `class ${name} is not a top-level class of any program module`);
  }

  /** Why an object of `ref` cannot be rebuilt as Object.create(prototype) plus its recorded fields, or undefined when it can. */
  unbuildable(ref: ClassRef): SkipReason | undefined {
    const seen = new Set<string>();
    for (let shape: ClassShape | undefined = ref.shape; shape !== undefined && !seen.has(shape.name); ) {
      seen.add(shape.name);
      if (shape.hasPrivate) return skip('private-state', `class ${shape.name} has #private members, which Object.create cannot give an object`);
      const base: string | undefined = shape.superName;
      if (base === undefined) return undefined;
      if (SLOTTED.has(base)) return skip('private-state', `class ${shape.name} extends ${base}, whose internal state Object.create cannot give an object`);
      if (base === 'Error' || base.endsWith('Error')) return skip('private-state', `class ${shape.name} is an error, whose message and stack are not recorded`);
      const outline = this.outline(ref.module);
      const parent: TopLevelBinding | undefined = 'bindings' in outline ? outline.bindings.get(base) : undefined;
      shape = parent?.kind === 'class' ? parent.shape : parent?.constructs;
    }
    return undefined;
  }

  #programFiles(): readonly string[] {
    if (this.#scanned !== undefined) return this.#scanned;
    const files: string[] = [];
    const walk = (dir: string): void => {
      let entries;
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        return; // An unreadable directory holds no class a test could import.
      }
      for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
        if (files.length >= MAX_SCANNED_FILES || entry.name.startsWith('.') || entry.name === 'node_modules') continue;
        const path = join(dir, entry.name);
        if (entry.isDirectory() && !this.#skipDirs.has(path)) walk(path);
        else if (entry.isFile() && SOURCE_FILE.test(entry.name) && !/\.d\.[cm]?ts$/.test(entry.name)) files.push(relative(this.#programDir, path).split(sep).join('/'));
      }
    };
    walk(this.#programDir);
    this.#scanned = files.filter((file) => !this.#traced.includes(file));
    return this.#scanned;
  }
}
