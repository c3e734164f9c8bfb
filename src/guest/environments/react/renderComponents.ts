/**
 * The first half of the React environment's driver: render each function component the snippet
 * declares at its top level (host.topLevelFunctions) and nothing rendered, with the props the snippet's usage implies for it
 * (`host.valueOf('<Name>#props')`: a recording probe in a learning run), synchronously (flushSync:
 * effects of the first render run before it returns). All of them share one root, in a container
 * appended to document.body, so React's listeners are set up once. The last declared comes first:
 * a snippet's root usually comes last, and the children it renders then count as called and are
 * not rendered again on their own.
 */
import { createElement, Fragment } from 'react';
import { flushSync } from 'react-dom';
import { createRoot, type Root } from 'react-dom/client';
import type { EnvironmentHost } from '../../../protocol/environment.ts';
import { keepingElementKind } from './containerKind.ts';

/**
 * What a function component's source shows, as written or instrumented (`hook.mc(…, "createElement", …)`):
 * elements, or hooks. A capitalised function that shows neither (a constructor) is not rendered.
 */
const COMPONENT_SOURCE = /\b(createElement|jsxs?|jsxDEV|use[A-Z]\w*)\b/;
const fnToString = Function.prototype.toString;

type AnyFunction = (...args: never[]) => unknown;

/** Whether `fn`, declared with a capitalised name, is a function component React can render. */
export function isComponent(fn: AnyFunction): boolean {
  let source: string;
  try {
    source = fnToString.call(fn);
  } catch {
    return false;
  }
  return !/^class\b/.test(source) && !/\bthis\b/.test(source) && COMPONENT_SOURCE.test(source);
}

/** The element that renders `fn` with `props` as they are (a probe stays a probe: React copies no props). */
function elementOf(name: string, fn: AnyFunction, props: unknown): unknown {
  // The component is called by a wrapper React renders: its hooks are the wrapper's, props untouched.
  const Render = () => (fn as unknown as (p: unknown) => unknown)(props);
  Object.defineProperty(Render, 'name', { value: name });
  return createElement(Render, { key: name });
}

/** Renders the components nothing rendered; the names of those it rendered, in order. */
export function renderUncalledComponents(host: EnvironmentHost, document: Document): string[] {
  const rendered: string[] = [];
  const elements: unknown[] = [];
  let root: Root | undefined;
  for (;;) {
    const next = [...host.topLevelFunctions()].reverse().find((f) => /^[A-Z]/.test(f.name) && !f.called && !rendered.includes(f.name) && isComponent(f.fn));
    if (!next) return rendered;
    rendered.push(next.name);
    const learnt = host.valueOf(`${next.name}#props`, `the props of <${next.name}> are undefined`);
    const props = host.isProbe(learnt) || (typeof learnt === 'object' && learnt !== null) ? learnt : {};
    elements.push(elementOf(next.name, next.fn, props));
    if (!root) {
      const container = document.createElement('div');
      document.body.appendChild(container);
      root = keepingElementKind(container, () => createRoot(container));
    }
    const r = root;
    // The ones rendered before keep their state: the same elements, so React does not render them again.
    flushSync(() => r.render(createElement(Fragment, null, ...elements)));
  }
}
