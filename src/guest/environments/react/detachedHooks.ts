/**
 * The hooks the snippet gets: React's own while React renders a component, and a detached stand-in
 * when nothing renders. A snippet is often the body of a component or of a custom hook, cut out
 * (`const [state, dispatch] = useReducer(reducer, init)` at its top level); React would throw
 * "Invalid hook call" there, and nothing of the body would run. The stand-in runs it as the first
 * render of that component would:
 * - useState / useReducer give the initial state; a setter stores the next state and a dispatch
 *   runs the reducer at once (nothing re-renders: the body is not run again);
 * - useEffect / useLayoutEffect / useInsertionEffect / useImperativeHandle run once, in order, on
 *   a timer of their own after the snippet (as effects run after the render); cleanups never run;
 * - useMemo calls its factory, useCallback gives its function, useRef a `{ current }` object,
 *   useContext the context's default value, useId an id, useTransition / useDeferredValue /
 *   useSyncExternalStore / useOptimistic / useActionState their first-render values.
 * Inside a class component's render React's own hooks run, and throw as React's do.
 */

type AnyFunction = (...args: unknown[]) => unknown;
type Hooks = Readonly<Record<string, AnyFunction>>;

/** The hooks wrapped: React's exports named here, each either React's or the detached one. */
export const HOOK_NAMES = [
  'useState', 'useReducer', 'useEffect', 'useLayoutEffect', 'useInsertionEffect', 'useImperativeHandle', 'useRef', 'useMemo', 'useCallback',
  'useContext', 'useId', 'useTransition', 'useDeferredValue', 'useSyncExternalStore', 'useOptimistic', 'useActionState', 'useDebugValue',
] as const;

interface SharedInternals {
  /** The hooks dispatcher React renders with; null when no component renders. */
  H: unknown;
}

/** Runs `fn` later, on the runtime's (virtual) timers. */
type Later = (fn: () => void) => void;

function detachedHooks(later: Later): Hooks {
  const effects: (() => void)[] = [];
  let ids = 0;
  const effect = (run: () => void) => {
    if (effects.push(run) === 1) {
      later(() => {
        // Effects queued while these run (a custom hook an effect calls) run in the same pass.
        for (let i = 0; i < effects.length; i++) (effects[i] as () => void)();
        effects.length = 0;
      });
    }
  };
  const useEffect = (create: unknown) => {
    if (typeof create === 'function') effect(() => void create());
  };
  const useState = (initial: unknown) => {
    let state = typeof initial === 'function' ? initial() : initial;
    const setState = (next: unknown) => {
      state = typeof next === 'function' ? next(state) : next;
    };
    return [state, setState];
  };
  return {
    useState,
    useReducer(reducer: unknown, initialArg: unknown, init?: unknown) {
      let state = typeof init === 'function' ? init(initialArg) : initialArg;
      const dispatch = (action: unknown) => {
        if (typeof reducer !== 'function') throw new TypeError('reducer is not a function');
        state = reducer(state, action);
      };
      return [state, dispatch];
    },
    useEffect,
    useLayoutEffect: useEffect,
    useInsertionEffect: useEffect,
    useImperativeHandle(ref: unknown, create: unknown) {
      if (typeof create !== 'function') return;
      effect(() => {
        const handle = create();
        if (typeof ref === 'function') ref(handle);
        else if (ref !== null && typeof ref === 'object') (ref as { current: unknown }).current = handle;
      });
    },
    useRef: (initialValue: unknown) => ({ current: initialValue }),
    useMemo: (create: unknown) => (typeof create === 'function' ? create() : undefined),
    useCallback: (callback: unknown) => callback,
    useContext: (context: unknown) => (context !== null && typeof context === 'object' ? (context as { _currentValue?: unknown })._currentValue : undefined),
    useId: () => `«r${(ids++).toString(32)}»`,
    useTransition: () => [false, (callback: unknown) => (typeof callback === 'function' ? void callback() : undefined)],
    useDeferredValue: (value: unknown, initialValue?: unknown) => (initialValue !== undefined ? initialValue : value),
    useSyncExternalStore: (_subscribe: unknown, getSnapshot: unknown) => (typeof getSnapshot === 'function' ? getSnapshot() : undefined),
    useOptimistic: (passthrough: unknown) => [passthrough, () => undefined],
    useActionState(action: unknown, initialState: unknown) {
      const [state, setState] = useState(initialState) as [unknown, (v: unknown) => void];
      const dispatch = (payload: unknown) => {
        if (typeof action === 'function') setState(action(state, payload));
      };
      return [state, dispatch, false];
    },
    useDebugValue: () => undefined,
  };
}

/**
 * The hooks of `react` for the snippet: each calls React's while a component renders, else the
 * detached one. The wrappers keep React's names (`useState.name`).
 */
export function snippetHooks(react: Readonly<Record<string, unknown>>, later: Later, isProbe: (v: unknown) => boolean = () => false): Hooks {
  const internals = react.__CLIENT_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE as SharedInternals | undefined;
  const detached = detachedHooks(later);
  const out: Record<string, AnyFunction> = {};
  for (const name of HOOK_NAMES) {
    const real = react[name] as AnyFunction | undefined;
    const stand = detached[name] as AnyFunction;
    if (typeof real !== 'function' || !internals) continue;
    const hook = {
      [name](...args: unknown[]): unknown {
        // `useState(initial)` with a value still being learnt (a prop): the initial state itself, not a lazy initialiser to call,
        // so the run learns how the state is used (`count + 1`: a number) rather than that it was called.
        if (name === 'useState' && isProbe(args[0])) {
          const initial = args[0];
          args[0] = () => initial;
        }
        return internals.H === null || internals.H === undefined ? stand(...args) : real(...args);
      },
    }[name] as AnyFunction;
    out[name] = hook;
  }
  return out;
}
