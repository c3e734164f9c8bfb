import * as t from '@babel/types';
import { undeclaredNames } from '../parse/parseSnippet.ts';
import { traverse } from '../parse/stripTypes.ts';
import type { SnippetNames } from './registry.ts';

/**
 * The names a snippet uses that it does not declare, and the modules it loads (`require('x')`,
 * `import … from 'x'`, `import('x')`, `export … from 'x'`), read from its syntax tree before
 * instrumentation. JSX needs `React`, so a snippet with JSX names it.
 */
export function snippetNames(ast: t.File): SnippetNames {
  const modules = new Set<string>();
  let jsx = false;
  t.traverseFast(ast, (node) => {
    if (t.isJSXElement(node) || t.isJSXFragment(node)) jsx = true;
    else if ((t.isImportDeclaration(node) || t.isExportAllDeclaration(node) || t.isExportNamedDeclaration(node)) && node.source) modules.add(node.source.value);
    else if (t.isCallExpression(node) && node.arguments.length >= 1) {
      const isRequire = t.isIdentifier(node.callee, { name: 'require' }) || t.isImport(node.callee);
      const arg = node.arguments[0];
      if (isRequire && t.isStringLiteral(arg)) modules.add(arg.value);
      else if (isRequire && t.isTemplateLiteral(arg) && arg.expressions.length === 0 && arg.quasis[0]?.value.cooked != null) modules.add(arg.quasis[0].value.cooked);
    } else if (t.isImportExpression(node) && t.isStringLiteral(node.source)) modules.add(node.source.value);
  });
  // parseSnippet's crawl of the tree it returned found them already; any other tree is crawled here.
  const known = undeclaredNames(ast);
  let globals: string[] = known ? [...known] : [];
  if (!known) {
    traverse(ast, {
      Program(path) {
        path.scope.crawl();
        globals = Object.keys((path.scope as unknown as { globals: Record<string, unknown> }).globals);
        path.stop();
      },
    });
  }
  if (jsx && !globals.includes('React')) globals.push('React');
  return { globals, modules: [...modules] };
}
