/**
 * The `react` environment: the real React 19 (the installed react and react-dom, production
 * builds) on the browser environment's DOM, as the globals `React`, `ReactDOM`, `createRoot` and
 * the hooks, and the modules react, react-dom, react-dom/client and react/jsx-runtime. JSX is
 * lowered to `React.createElement`. Its scheduler runs on the runtime's virtual timers. Hooks
 * called where no component renders get a detached stand-in (detachedHooks.ts). After the
 * snippet, the driver renders the components nothing rendered, with learnt props, then fires the
 * event handlers of what React shows (renderComponents.ts, fireHandlers.ts).
 */
import { restoreReportError } from './prelude.ts';
import * as React from 'react';
import * as jsxRuntime from 'react/jsx-runtime';
import * as ReactDOM from 'react-dom';
import * as ReactDOMClient from 'react-dom/client';
import type { EnvironmentHost } from '../../../protocol/environment.ts';
import { keepingElementKind } from './containerKind.ts';
import { snippetHooks } from './detachedHooks.ts';
import { explainReactError } from './reactErrors.ts';
import { fixDom, type Quietly } from './domFixes.ts';
import { fireReactHandlers } from './fireHandlers.ts';
import { createLegacyApi } from './legacyRoot.ts';
import { probeSafeCreateElement, probeSafeJsx } from './probeSafeElements.ts';
import { renderUncalledComponents } from './renderComponents.ts';

restoreReportError();

/** Globals besides React and ReactDOM, for a snippet that leaves out its imports (the registry's list selects the environment). */
const BARE_GLOBALS = ['useState', 'useEffect', 'useLayoutEffect', 'useRef', 'useMemo', 'useCallback', 'useContext', 'useReducer', 'useId', 'useTransition', 'useDeferredValue', 'useSyncExternalStore', 'useImperativeHandle', 'createContext'] as const;

type CreateRoot = (container: Element | DocumentFragment, options?: ReactDOMClient.RootOptions) => ReactDOMClient.Root;

/** Runs `fn`; an error it throws leaves with React's message put back. */
function explained<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    explainReactError(error);
    throw error;
  }
}

/**
 * The browser environment's driver runs before this one and goes on for another round, after the
 * drivers, only when its first round fired something. A listener of its own on an element that is
 * in no page makes sure it does: the listeners that effects of the components this driver renders
 * register (`window.addEventListener('resize', …)`) are then fired in that round. Nothing the
 * snippet sees: the event reaches only that element.
 */
function keepListenerRoundsGoing(document: Document): void {
  document.createElement('i').addEventListener('snipexec-react-driver', () => undefined);
}

export function setup(host: EnvironmentHost): void {
  const G = host.global as unknown as Record<string, unknown>;
  const document = G.document as Document | undefined;
  if (!document || typeof document.createElement !== 'function') throw new Error('the react environment needs the browser environment (no document)');
  const internals = (document as unknown as Record<symbol, { withoutCreating?: Quietly } | undefined>)[Symbol.for('snipexec.browser')];
  const quietly: Quietly = (fn) => (internals?.withoutCreating ? internals.withoutCreating(fn) : fn());
  fixDom(document, quietly);
  const isProbe = (v: unknown) => host.isProbe(v);
  // The runtime's (virtual) setTimeout, taken before the snippet can replace it; a microtask where there is none.
  const setTimeout = G.setTimeout as ((fn: () => void, ms: number) => unknown) | undefined;
  const later = typeof setTimeout === 'function' ? (fn: () => void) => void setTimeout(fn, 0) : (fn: () => void) => void Promise.resolve().then(fn);

  const react = { ...React, createElement: probeSafeCreateElement(React.createElement, isProbe), ...snippetHooks(React as unknown as Record<string, unknown>, later, isProbe) } as Record<string, unknown>;
  const runtime = { ...jsxRuntime, jsx: probeSafeJsx(jsxRuntime.jsx, isProbe), jsxs: probeSafeJsx(jsxRuntime.jsxs, isProbe), jsxDEV: probeSafeJsx(jsxRuntime.jsx, isProbe) };
  const createRoot: CreateRoot = function createRoot(container, options) {
    return keepingElementKind(container, () => explained(() => ReactDOMClient.createRoot(container, options)));
  };
  const hydrateRoot = function hydrateRoot(container: Element | Document, children: unknown, options?: ReactDOMClient.RootOptions) {
    return keepingElementKind(container, () => explained(() => ReactDOMClient.hydrateRoot(container, children, options)));
  };
  const client = { ...ReactDOMClient, createRoot, hydrateRoot };
  const dom = { ...ReactDOM, ...client, ...createLegacyApi(createRoot) };

  host.defineGlobal('React', react);
  host.defineGlobal('ReactDOM', dom);
  host.defineGlobal('createRoot', createRoot);
  for (const name of BARE_GLOBALS) host.defineGlobal(name, react[name]);
  host.defineModule('react', react);
  host.defineModule('react/jsx-runtime', runtime);
  host.defineModule('react/jsx-dev-runtime', runtime);
  host.defineModule('react-dom', dom);
  host.defineModule('react-dom/client', client);

  keepListenerRoundsGoing(document);
  host.afterSnippet('react components', () => {
    renderUncalledComponents(host, document);
    fireReactHandlers(document, G, quietly);
  });
}
