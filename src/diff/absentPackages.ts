/** The file's top-level lines the hooks need: Node's own `require` (a learnt module table may be named `require` inside the test). */
export const ABSENT_PACKAGE_IMPORTS: readonly string[] = [
  "const sourceOf = (url) => require('node:fs').readFileSync(require('node:url').fileURLToPath(url), 'utf8');",
];

/**
 * Source lines of a reproduction (reproduction.ts) that stand in for the npm packages the
 * repository's files load and the checkout has not installed (the run's sandbox gave them values
 * too, or never reached their use): without them a reproduction that loads the project's files
 * fails on both versions at the first import of `form-data`. A bare specifier Node cannot resolve
 * loads a module whose exports (its default, and the names the importing file asks for) are one
 * hollow value that any use absorbs: a member of it, a call or `new` of it is itself.
 *
 * In a block of its own (its names stay clear of the learnt values'). Registered before the reproduction's other hooks, so it is the innermost: they answer the
 * learnt modules first and pass on to it what they do not know.
 */
export const ABSENT_PACKAGE_HOOKS: readonly string[] = [
  '  {',
  "  const hollow = () => { const f = function () {}; const p = new Proxy(f, { get: (t, k) => (k === 'prototype' ? t.prototype : k === 'then' || typeof k === 'symbol' ? undefined : k === 'toString' || k === 'valueOf' ? () => '' : p), apply: () => p, construct: () => p }); return p; };",
  '  // The names a file imports from a specifier (`import X, { a, b as c } from "pkg"`, `export { a } from "pkg"`): the stand-in exports them.',
  "  const importedNames = (parentURL, specifier) => { try { const source = sourceOf(parentURL); const names = new Set(); const quoted = specifier.replace(/[.*+?^${}()|[\\]\\\\]/g, '\\\\$&'); for (const m of source.matchAll(new RegExp(`(?:import|export)\\\\s*(?:[\\\\w$]+\\\\s*,\\\\s*)?\\\\{([^}]*)\\\\}\\\\s*from\\\\s*['\"]${quoted}['\"]`, 'g'))) for (const part of m[1].split(',')) { const name = part.trim().split(/\\s+as\\s+/)[0]; if (/^[A-Za-z_$][\\w$]*$/.test(name) && name !== 'default') names.add(name); } return [...names]; } catch { return []; } };",
  '  registerHooks({',
  '    resolve(specifier, context, nextResolve) {',
  '      try {',
  '        return nextResolve(specifier, context);',
  '      } catch (error) {',
  "        const missing = error && (error.code === 'ERR_MODULE_NOT_FOUND' || error.code === 'MODULE_NOT_FOUND');",
  "        if (!missing || !/^[^./]/.test(specifier) || specifier.startsWith('node:') || path.isAbsolute(specifier)) throw error;",
  "        const asked = context.conditions && context.conditions.includes('require') ? 'commonjs' : 'module';",
  "        return { url: `snipexec-absent:${encodeURIComponent(specifier)}?${asked}&${encodeURIComponent(context.parentURL || '')}`, format: asked, shortCircuit: true };",
  '      }',
  '    },',
  '    load(url, context, nextLoad) {',
  "      if (!url.startsWith('snipexec-absent:')) return nextLoad(url, context);",
  "      const [specifier, query] = [decodeURIComponent(url.slice('snipexec-absent:'.length).split('?')[0]), url.split('?')[1] || ''];",
  "      const [asked, parent] = [query.split('&')[0], decodeURIComponent(query.split('&').slice(1).join('&'))];",
  '      globalThis.__snipexec_absent = { ...globalThis.__snipexec_absent, [specifier]: hollow() };',
  "      const m = `globalThis.__snipexec_absent[${JSON.stringify(specifier)}]`;",
  "      if (asked === 'commonjs') return { format: 'commonjs', source: `module.exports = ${m};`, shortCircuit: true };",
  "      return { format: 'module', source: `export default ${m};\\n${importedNames(parent, specifier).map((k) => `export const ${k} = ${m}.${k};`).join('\\n')}`, shortCircuit: true };",
  '    },',
  '  });',
  '  }',
];
