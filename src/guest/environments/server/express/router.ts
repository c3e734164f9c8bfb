/**
 * `express.Router()` and the routing methods an app shares with it: use, route, param, all and
 * one per HTTP method. As Express does, a handler that is not a function throws when registered.
 */
import type { PathSpec } from '../pathPattern.ts';
import { handleRequest, makeLayer, Route, routerStates, type Handler, type RouterState } from './routing.ts';
import { trackRouter } from './driveExpress.ts';
import { blamingCaller, callersFault } from '../../shared/callerErrors.ts';
import { probeAsFunction } from '../../shared/probeArgs.ts';
import { isProbe } from '../serverHost.ts';

/** A handler as Express takes it: a recording proxy is used as the function it must be, and learnt as one. */
function asHandler(h: unknown): unknown {
  return isProbe(h) ? probeAsFunction(h) : h;
}

/** The HTTP methods a router or route has a method for (`del` is Express's old `delete`). */
export const ROUTE_METHODS: readonly string[] = ['get', 'post', 'put', 'patch', 'delete', 'del', 'head', 'options', 'all'];

type Methods = Record<string, unknown>;

function typeName(v: unknown): string {
  return Object.prototype.toString.call(v);
}

function isPathSpec(v: unknown): v is PathSpec {
  return typeof v === 'string' || v instanceof RegExp || (Array.isArray(v) && v.length > 0 && v.every((p) => typeof p === 'string' || p instanceof RegExp));
}

/** Gives a route its methods: `route.get(h).post(h2)`, chainable. */
function withRouteMethods(route: Route): Route & Methods {
  const r = route as Route & Methods;
  for (const name of ROUTE_METHODS) {
    const method = name === 'del' ? 'delete' : name === 'all' ? '_all' : name;
    r[name] = blamingCaller((...handlers: unknown[]) => {
      for (const h of handlers.flat(Infinity).map(asHandler)) {
        if (typeof h !== 'function') throw callersFault(new TypeError(`Route.${name}() requires a callback function but got a ${typeName(h)}`));
        route.stack.push({ method, handle: h as Handler, layer: makeLayer(route.path, true, h as Handler) });
      }
      return r;
    });
  }
  return r;
}

/**
 * Adds use, route, param and the method functions to a router or app. `setting` answers
 * `app.get(name)` with one argument (an app's settings); `onMount` sees an app mounted with `use`.
 */
export function addRoutingMethods(target: Methods, state: RouterState, owner: string, setting?: (name: string) => unknown, onMount?: (child: Handler, path: PathSpec) => void): void {
  target.use = blamingCaller((...args: unknown[]) => {
    const path: PathSpec = isPathSpec(args[0]) ? (args.shift() as PathSpec) : '/';
    const fns = args.flat(Infinity).map(asHandler);
    if (fns.length === 0) throw callersFault(new TypeError(`${owner}.use() requires a middleware function`));
    for (const fn of fns) {
      if (typeof fn !== 'function') throw callersFault(new TypeError(`${owner}.use() requires a middleware function but got a ${typeName(fn)}`));
      const handler = fn as Handler;
      const child = routerStates.has(handler) ? handler : undefined;
      if (child && onMount) onMount(child, path);
      state.stack.push(makeLayer(path, false, handler, child ? { child } : {}));
    }
    return target;
  });
  target.route = (path: PathSpec) => {
    const route = withRouteMethods(new Route(path));
    state.stack.push(makeLayer(path, true, () => undefined, { route }));
    return route;
  };
  target.param = blamingCaller((name: unknown, fn: unknown) => {
    for (const n of ([] as unknown[]).concat(name)) {
      if (typeof fn !== 'function') throw callersFault(new TypeError(`invalid param() call for ${String(n)}, got ${String(fn)}`));
      const list = state.params.get(String(n)) ?? [];
      list.push(fn as Handler);
      state.params.set(String(n), list);
    }
    return target;
  });
  for (const name of ROUTE_METHODS) {
    target[name] = blamingCaller((...args: unknown[]) => {
      if (name === 'get' && setting && args.length === 1) return setting(String(args[0]));
      const route = (target.route as (p: PathSpec) => Methods)(args[0] as PathSpec);
      (route[name] as (...h: unknown[]) => unknown)(...args.slice(1));
      return target;
    });
  }
}

/** `express.Router(options)`: a middleware function with its own stack. */
export function createRouter(options?: { mergeParams?: boolean }): Handler {
  const state: RouterState = { stack: [], params: new Map(), mergeParams: options?.mergeParams === true };
  const router = function router(req: unknown, res: unknown, next: unknown) {
    handleRequest(state, req, res, typeof next === 'function' ? (next as (e?: unknown) => void) : () => undefined);
  } as Handler & Methods;
  routerStates.set(router, state);
  router.stack = state.stack;
  addRoutingMethods(router, state, 'Router');
  trackRouter(router, undefined);
  return router;
}
