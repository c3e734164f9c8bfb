// react and react-dom ship no types of their own (no @types/react here); only what the environment uses.
declare module 'react' {
  export type ReactElementLike = { readonly type: unknown; readonly props: unknown };
  export function createElement(type: unknown, props?: unknown, ...children: unknown[]): ReactElementLike;
  export const Component: { prototype: { isReactComponent?: unknown } };
  export const Fragment: unknown;
  export const version: string;
}
declare module 'react/jsx-runtime' {
  export function jsx(type: unknown, props: unknown, key?: unknown): unknown;
  export function jsxs(type: unknown, props: unknown, key?: unknown): unknown;
  export const Fragment: unknown;
}
declare module 'react-dom' {
  export function flushSync<T>(fn: () => T): T;
  export const version: string;
}
declare module 'react-dom/client' {
  export interface RootOptions {
    onUncaughtError?: (error: unknown, info: unknown) => void;
    onCaughtError?: (error: unknown, info: unknown) => void;
    onRecoverableError?: (error: unknown, info: unknown) => void;
    identifierPrefix?: string;
  }
  export interface Root {
    render(children: unknown): void;
    unmount(): void;
  }
  export function createRoot(container: Element | DocumentFragment, options?: RootOptions): Root;
  export function hydrateRoot(container: Element | Document, children: unknown, options?: RootOptions): Root;
}
