import { OWN_INSTANCE, ownInstancesIn } from '../protocol/ownInstance.ts';

const PENDING = '__snipexec_instances';

/**
 * How a reproduction replays own-class edge values (protocol/ownInstance.ts) under plain Node. The
 * learnt values are defined before the file loads, when its classes do not exist yet: each
 * `__snipexec_instance(target, name)` there gives an empty object (`head`), which `fill`, run
 * after the load in the file's scope, makes an instance of the class: `new C()` (else
 * `Object.create(C.prototype)`), its prototype and fields copied in. C is the class's name in the
 * file's scope, else a function of that name the exports reach (`module.exports.TextRenderer`, for
 * a class inside an IIFE). Undefined when the rendered values hold none.
 */
export function ownInstanceReplay(renderedSource: string): { head: string[]; fill: string } | undefined {
  const names = [...new Set(ownInstancesIn(renderedSource).map((i) => i.name))].filter((n) => /^[A-Za-z_$][\w$]*$/.test(n));
  if (names.length === 0) return undefined;
  const head = [
    `  globalThis.${PENDING} = [];`,
    `  globalThis.${OWN_INSTANCE} = (target, name) => { const made = {}; globalThis.${PENDING}.push([made, name]); return made; };`,
  ];
  // Each name as the file's scope sees it (typeof: a name it does not bind is no ReferenceError).
  const inScope = names.map((n) => `${JSON.stringify(n)}: typeof ${n} === 'function' ? ${n} : undefined`).join(', ');
  const fromExports = "(name) => { const root = typeof module === 'object' && module ? module.exports : undefined; if (typeof root === 'function' && root.name === name) return root; for (const owner of [root, ...(root && typeof root === 'object' || typeof root === 'function' ? Object.values(root) : [])]) { if (owner && (typeof owner === 'object' || typeof owner === 'function') && typeof owner[name] === 'function') return owner[name]; } return undefined; }";
  const fill = `((own, exported) => { for (const [made, name] of globalThis.${PENDING}) { const C = own[name] || exported(name); if (typeof C !== 'function') throw new Error('snipexec: the class ' + name + ' is not reachable from the file'); let instance; try { instance = new C(); } catch { instance = Object.create(C.prototype); } Object.setPrototypeOf(made, Object.getPrototypeOf(instance)); Object.assign(made, instance); } })({ ${inScope} }, ${fromExports})`;
  return { head, fill };
}
