/**
 * The legacy entry points React 19 removed (`ReactDOM.render`, `hydrate`,
 * `unmountComponentAtNode`), which snippets written for React ≤ 17 still call: they render
 * through a root of the container, synchronously, as the legacy API did.
 */
import { flushSync } from 'react-dom';
import type { Root } from 'react-dom/client';

export interface LegacyApi {
  render(element: unknown, container: Element, callback?: () => void): null;
  hydrate(element: unknown, container: Element, callback?: () => void): null;
  unmountComponentAtNode(container: Element): boolean;
}

/** `createRoot` makes the root of a container (the environment's, which keeps the container's kind). */
export function createLegacyApi(createRoot: (container: Element) => Root): LegacyApi {
  const roots = new WeakMap<object, Root>();
  const render = (element: unknown, container: Element, callback?: () => void): null => {
    if (!container || typeof container !== 'object' || typeof (container as Node).nodeType !== 'number') throw new Error('Target container is not a DOM element.');
    let root = roots.get(container);
    if (!root) roots.set(container, (root = createRoot(container)));
    const r = root;
    flushSync(() => r.render(element));
    if (typeof callback === 'function') callback();
    return null;
  };
  return {
    render,
    hydrate: render,
    unmountComponentAtNode(container: Element): boolean {
      const root = roots.get(container);
      if (!root) return false;
      flushSync(() => root.unmount());
      roots.delete(container);
      return true;
    },
  };
}
