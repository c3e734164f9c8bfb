import * as t from '@babel/types';
import type { ParsedSnippet } from '../parse/parseSnippet.ts';

/** What the completed program needs of a snippet's syntax when it keeps the snippet's text (buildProgram's snippetSource). */
export interface ProgramFacts {
  /** It opens with a directive prologue ('use strict'). */
  readonly directives: boolean;
  /** It has syntax plain Node cannot run as a CommonJS script after the definitions (needsRewrite). */
  readonly rewrite: boolean;
}

/** Per parsed snippet, its facts as read from its tree before instrumentation rewrote it in place. */
const noted = new WeakMap<object, ProgramFacts>();

/** Syntax plain Node cannot run as a CommonJS script after the definitions: module syntax, JSX, decorators. */
export function needsRewrite(ast: t.File): boolean {
  let found = false;
  // A fast walk (no paths, no scope crawl): the rewrites, when needed, build their own.
  t.traverseFast(ast, (n) => {
    if (!t.isImportDeclaration(n) && !t.isExportDeclaration(n) && !t.isJSX(n) && !t.isDecorator(n)) return undefined;
    found = true;
    return t.traverseFast.stop;
  });
  return found;
}

/** The facts of a tree as parsed from `code` (the snippet's parse, before anything rewrote it). */
export function programFactsOf(ast: t.File): ProgramFacts {
  return { directives: ast.program.directives.length > 0, rewrite: needsRewrite(ast) };
}

/**
 * Notes a freshly parsed snippet's facts, so each program built from it (one per kept scenario)
 * does not parse the snippet again for them. Call it before anything rewrites `parsed.ast`.
 */
export function noteProgramFacts(parsed: ParsedSnippet): void {
  noted.set(parsed, programFactsOf(parsed.ast));
}

/** The facts noted for this parsed snippet (the same object), if any. */
export function notedProgramFacts(parsed: object): ProgramFacts | undefined {
  return noted.get(parsed);
}
