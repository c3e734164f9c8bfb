// jquery ships no types of its own; the environment needs only the factory's shape.
declare module 'jquery' {
  /**
   * jQuery 3's CommonJS export where the global has no `window` with a document (the bundle is
   * built with `window` undefined): builds a jQuery bound to `window` (its document), without touching `window.$`.
   */
  const jQueryFactory: (window: Window) => JQueryStaticLike;
  export default jQueryFactory;
}

/** What the jQuery environment uses of the jQuery function. */
interface JQueryStaticLike {
  (selector: unknown, context?: unknown): unknown;
  ajaxTransport(dataType: string, factory: (options: JQueryAjaxOptionsLike) => JQueryTransportLike | undefined): void;
  readonly fn: Record<string, unknown>;
  /** The selector engine's extensions: `pseudos.visible` backs `:visible` and `:hidden`. */
  readonly expr: { pseudos: Record<string, (element: Element) => boolean> };
}

interface JQueryAjaxOptionsLike {
  readonly url: string;
  readonly type: string;
  readonly data?: unknown;
  readonly dataTypes: readonly string[];
  readonly crossDomain?: boolean;
  readonly timeout?: number;
}

interface JQueryTransportLike {
  send(headers: Record<string, string>, complete: (status: number, statusText: string, responses?: Record<string, unknown>, headers?: string) => void): void;
  abort(): void;
}
