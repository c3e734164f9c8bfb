/**
 * `createElement` and `jsx` that turn a recording probe of trace mode into text where React needs
 * a primitive: a child (`<h1>{props.title}</h1>`) and an attribute of a DOM element
 * (`<img src={props.url}>`). React would skip a probe there (it is a function), so its use as text
 * would never be learnt and the next run could give an object, which React refuses as a child.
 * The use is recorded as a string's: a call of `trim` on the probe, since a bare conversion
 * (`String(probe)`) ranks below an object among the trace generator's clues. Boolean attributes
 * (`disabled={props.busy}`) are left alone. Outside learning runs there are no probes and nothing
 * changes.
 */

const BOOLEAN_ATTRIBUTE = /^(allowFullScreen|async|autoFocus|autoPlay|checked|controls|default|defaultChecked|defer|disabled|formNoValidate|hidden|inert|loop|multiple|muted|noModule|noValidate|open|playsInline|readOnly|required|reversed|scoped|seamless|selected|itemScope)$/;

type IsProbe = (v: unknown) => boolean;

/** A child with its probes (also inside arrays) turned into strings; the same value when it has none. */
/** A probe as text, its use recorded as a string's. */
function asText(probe: unknown): string {
  void (probe as { trim(): unknown }).trim();
  return String(probe);
}

function textOfProbes(child: unknown, isProbe: IsProbe): unknown {
  if (isProbe(child)) return asText(child);
  if (!Array.isArray(child)) return child;
  let out: unknown[] | undefined;
  for (let i = 0; i < child.length; i++) {
    const fixed = textOfProbes(child[i], isProbe);
    if (fixed !== child[i]) (out ??= child.slice())[i] = fixed;
  }
  return out ?? child;
}

/** The props of an element with probes turned into text where React needs a primitive. */
function fixProps(type: unknown, props: unknown, isProbe: IsProbe): unknown {
  if (!props || typeof props !== 'object' || isProbe(props)) return props;
  const source = props as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(source)) {
    const value = source[key];
    let fixed = value;
    if (key === 'children') fixed = textOfProbes(value, isProbe);
    else if (typeof type === 'string' && isProbe(value) && !/^on[A-Z]|^(ref|style|dangerouslySetInnerHTML)$/.test(key) && !BOOLEAN_ATTRIBUTE.test(key)) fixed = asText(value);
    if (fixed !== value) (out ??= { ...source })[key] = fixed;
  }
  return out ?? props;
}

/** createElement(type, props, ...children) of React, probe-safe. */
export function probeSafeCreateElement(createElement: (type: unknown, props?: unknown, ...children: unknown[]) => unknown, isProbe: IsProbe) {
  return function createElementOfSnippet(type: unknown, props?: unknown, ...children: unknown[]): unknown {
    return createElement(type, fixProps(type, props, isProbe), ...children.map((c) => textOfProbes(c, isProbe)));
  };
}

/** jsx/jsxs(type, props, key) of react/jsx-runtime, probe-safe. */
export function probeSafeJsx(jsx: (type: unknown, props: unknown, key?: unknown) => unknown, isProbe: IsProbe) {
  return function jsxOfSnippet(type: unknown, props: unknown, ...rest: unknown[]): unknown {
    return jsx(type, fixProps(type, props, isProbe), ...rest);
  };
}
