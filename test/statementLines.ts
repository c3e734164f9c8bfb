import { parse, type ParserPlugin } from '@babel/parser';
import * as t from '@babel/types';

/**
 * The lines on which a statement of `code` starts, counted by a walk of its own over a parse of
 * its own, written apart from the coverage visitor so it can check it: every statement or
 * declaration but blocks, empty statements and TypeScript-only declarations (interfaces, type
 * aliases, `declare`, type-only imports and exports), which cannot run.
 */
export function statementLines(code: string, lang: 'js' | 'jsx' | 'ts' | 'tsx'): Set<number> {
  const plugins: ParserPlugin[] = ['decorators-legacy', 'classProperties', 'topLevelAwait'];
  if (lang === 'jsx' || lang === 'tsx') plugins.push('jsx');
  if (lang === 'ts' || lang === 'tsx') plugins.push('typescript');
  const options = {
    allowReturnOutsideFunction: true, allowAwaitOutsideFunction: true, allowImportExportEverywhere: true,
    allowNewTargetOutsideFunction: true, allowSuperOutsideMethod: true, allowUndeclaredExports: true, plugins,
  };
  let ast: t.File;
  try {
    ast = parse(code, { ...options, sourceType: 'module' });
  } catch {
    ast = parse(code, { ...options, sourceType: 'script' });
  }
  const lines = new Set<number>();
  t.traverseFast(ast, (node) => {
    if (!t.isStatement(node) || t.isBlockStatement(node) || t.isEmptyStatement(node) || typeOnly(node) || !node.loc) return;
    lines.add(node.loc.start.line);
  });
  return lines;
}

function typeOnly(node: t.Statement): boolean {
  if (t.isTSInterfaceDeclaration(node) || t.isTSTypeAliasDeclaration(node) || t.isTSDeclareFunction(node)) return true;
  if ((t.isImportDeclaration(node) && node.importKind === 'type') || ((t.isExportNamedDeclaration(node) || t.isExportAllDeclaration(node)) && node.exportKind === 'type')) return true;
  return 'declare' in node && node.declare === true;
}
