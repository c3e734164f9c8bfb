/**
 * A canvas that draws nothing: linkedom's canvas needs the native `canvas` package and otherwise
 * has no context. Here `getContext('2d')` gives a CanvasRenderingContext2D model (one per canvas):
 * its drawing methods run and return undefined, leaving no pixels (getImageData reads transparent
 * black); its state (fillStyle, lineWidth, font, … and the transform) is kept, validated as the
 * standard says (a value of the wrong kind is ignored), and saved and restored by save()/restore();
 * measureText gives a width from the font size (half an em per character, as no font is loaded).
 * WebGL, WebGPU and bitmaprenderer contexts are not modelled: getContext answers null for them,
 * as a browser does for a context it cannot create. toDataURL gives the same small blank PNG.
 */
import { domException } from './network.ts';

type Matrix = [number, number, number, number, number, number];

const finite = (v: unknown) => typeof v === 'number' ? Number.isFinite(v) : Number.isFinite(Number(v));
const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];
/** A 1×1 transparent PNG. */
const BLANK_PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

/** Numeric state: the values each accepts (others are ignored). */
const NUMBERS: Readonly<Record<string, [number, (n: number) => boolean]>> = {
  lineWidth: [1, (n) => n > 0],
  miterLimit: [10, (n) => n > 0],
  globalAlpha: [1, (n) => n >= 0 && n <= 1],
  shadowBlur: [0, (n) => n >= 0],
  shadowOffsetX: [0, () => true],
  shadowOffsetY: [0, () => true],
  lineDashOffset: [0, () => true],
};
/** Keyword state: the initial value and the keywords accepted. */
const KEYWORDS: Readonly<Record<string, readonly string[]>> = {
  lineCap: ['butt', 'round', 'square'],
  lineJoin: ['miter', 'round', 'bevel'],
  textAlign: ['start', 'end', 'left', 'right', 'center'],
  textBaseline: ['alphabetic', 'top', 'hanging', 'middle', 'ideographic', 'bottom'],
  direction: ['inherit', 'ltr', 'rtl'],
  imageSmoothingQuality: ['low', 'medium', 'high'],
  fontKerning: ['auto', 'normal', 'none'],
  globalCompositeOperation: ['source-over', 'source-in', 'source-out', 'source-atop', 'destination-over', 'destination-in', 'destination-out', 'destination-atop', 'lighter', 'copy', 'xor', 'multiply', 'screen', 'overlay', 'darken', 'lighten', 'color-dodge', 'color-burn', 'hard-light', 'soft-light', 'difference', 'exclusion', 'hue', 'saturation', 'color', 'luminosity'],
};
/** Free-text state, kept as set when not empty. */
const TEXTS: Readonly<Record<string, string>> = { font: '10px sans-serif', filter: 'none', letterSpacing: '0px', wordSpacing: '0px' };
const COLORS: Readonly<Record<string, string>> = { fillStyle: '#000000', strokeStyle: '#000000', shadowColor: 'rgba(0, 0, 0, 0)' };
/** Methods that draw (or build a path): they run and return undefined. */
const DRAWING = ['fillRect', 'strokeRect', 'clearRect', 'beginPath', 'closePath', 'moveTo', 'lineTo', 'arc', 'arcTo', 'bezierCurveTo', 'quadraticCurveTo', 'rect', 'roundRect', 'ellipse', 'fill', 'stroke', 'clip', 'fillText', 'strokeText', 'drawImage', 'putImageData', 'drawFocusIfNeeded', 'scrollPathIntoView'];

/** A CSS color as a canvas reads it back: hex lower-cased and in six digits; other colors as given. */
function color(v: string): string | undefined {
  const s = v.trim();
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(s)?.[1];
  if (hex) return `#${(hex.length === 3 ? hex.replace(/./g, '$&$&') : hex).toLowerCase()}`;
  return /^(#[0-9a-f]{4}|#[0-9a-f]{8}|[a-z]+|(rgba?|hsla?|hwb|lab|lch|oklab|oklch|color)\(.*\))$/i.test(s) ? s : undefined;
}

export class CanvasGradient {
  addColorStop(offset: unknown, stop: unknown): void {
    const n = Number(offset);
    if (!(n >= 0 && n <= 1)) throw domException(`Failed to execute 'addColorStop' on 'CanvasGradient': The provided value (${String(offset)}) is outside the range (0.0, 1.0).`, 'IndexSizeError');
    if (color(String(stop)) === undefined) throw domException(`Failed to execute 'addColorStop' on 'CanvasGradient': The value provided ('${String(stop)}') could not be parsed as a color.`, 'SyntaxError');
  }
}

export class CanvasPattern {
  setTransform(): void {}
}

export class ImageData {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8ClampedArray;
  readonly colorSpace = 'srgb';
  constructor(a: unknown, b: unknown, c?: unknown) {
    if (a instanceof Uint8ClampedArray) {
      const width = Number(b) >>> 0;
      const height = c === undefined ? a.length / 4 / width : Number(c) >>> 0;
      if (width === 0 || a.length === 0 || a.length % 4 !== 0 || a.length !== width * height * 4) throw domException("Failed to construct 'ImageData': The input data length is not a multiple of (4 * width) or does not match height.", 'IndexSizeError');
      [this.width, this.height, this.data] = [width, height, a];
    } else {
      const width = Math.abs(Number(a) | 0);
      const height = Math.abs(Number(b) | 0);
      if (width === 0 || height === 0) throw domException(`Failed to construct 'ImageData': The source ${width === 0 ? 'width' : 'height'} is zero or not a number.`, 'IndexSizeError');
      [this.width, this.height, this.data] = [width, height, new Uint8ClampedArray(width * height * 4)];
    }
  }
}

/** A Path2D whose building methods run and draw nothing. */
export class Path2D {
  constructor(_path?: unknown) {}
  addPath(): void {}
}
for (const name of ['moveTo', 'lineTo', 'arc', 'arcTo', 'bezierCurveTo', 'quadraticCurveTo', 'rect', 'roundRect', 'ellipse', 'closePath']) {
  Object.defineProperty(Path2D.prototype, name, { value: () => undefined, writable: true, configurable: true });
}

interface State {
  values: Record<string, unknown>;
  transform: Matrix;
  lineDash: number[];
}

const multiply = (m: Matrix, [a, b, c, d, e, f]: Matrix): Matrix => [m[0] * a + m[2] * b, m[1] * a + m[3] * b, m[0] * c + m[2] * d, m[1] * c + m[3] * d, m[0] * e + m[2] * f + m[4], m[1] * e + m[3] * f + m[5]];

/** Each context's drawing state and its save() stack, out of the snippet's reach. */
const states = new WeakMap<object, { current: State; saved: State[] }>();
const initialState = (): State => {
  const values: Record<string, unknown> = { ...COLORS, ...TEXTS, imageSmoothingEnabled: true };
  for (const [key, [initial]] of Object.entries(NUMBERS)) values[key] = initial;
  for (const [key, [initial]] of Object.entries(KEYWORDS)) values[key] = initial;
  return { values, transform: [...IDENTITY], lineDash: [] };
};
const stateOf = (context: object) => {
  const found = states.get(context);
  if (!found) throw new TypeError('Illegal invocation');
  return found;
};

export class CanvasRenderingContext2D {
  readonly canvas: HTMLCanvasElement;
  constructor(canvas: HTMLCanvasElement) {
    this.canvas = canvas;
    states.set(this, { current: initialState(), saved: [] });
  }
  get #state(): State {
    return stateOf(this).current;
  }
  save(): void {
    const { values, transform, lineDash } = this.#state;
    stateOf(this).saved.push({ values: { ...values }, transform: [...transform], lineDash: [...lineDash] });
  }
  restore(): void {
    const s = stateOf(this);
    s.current = s.saved.pop() ?? s.current;
  }
  reset(): void {
    states.set(this, { current: initialState(), saved: [] });
  }
  setLineDash(segments: unknown): void {
    const list = [...(segments as Iterable<unknown>)].map(Number);
    if (list.some((n) => !Number.isFinite(n) || n < 0)) return;
    this.#state.lineDash = list.length % 2 === 1 ? [...list, ...list] : list;
  }
  getLineDash(): number[] {
    return [...this.#state.lineDash];
  }
  measureText(text: unknown): Record<string, number> {
    const size = Number(/(\d+(?:\.\d+)?)px/.exec(String(this.#state.values.font))?.[1] ?? 10);
    const width = String(text).length * size * 0.5;
    return { width, actualBoundingBoxLeft: 0, actualBoundingBoxRight: width, actualBoundingBoxAscent: size * 0.7, actualBoundingBoxDescent: size * 0.2, fontBoundingBoxAscent: size * 0.9, fontBoundingBoxDescent: size * 0.25, emHeightAscent: size * 0.8, emHeightDescent: size * 0.2, alphabeticBaseline: 0, hangingBaseline: size * 0.6, ideographicBaseline: -size * 0.2 };
  }
  createLinearGradient(): CanvasGradient { return new CanvasGradient(); }
  createRadialGradient(): CanvasGradient { return new CanvasGradient(); }
  createConicGradient(): CanvasGradient { return new CanvasGradient(); }
  createPattern(): CanvasPattern { return new CanvasPattern(); }
  createImageData(a: unknown, b?: unknown): ImageData {
    return a instanceof ImageData ? new ImageData(a.width, a.height) : new ImageData(a, b);
  }
  getImageData(_x: unknown, _y: unknown, width: unknown, height: unknown): ImageData {
    const [w, h] = [Math.abs(Number(width) | 0), Math.abs(Number(height) | 0)];
    if (w === 0 || h === 0) throw domException(`Failed to execute 'getImageData' on 'CanvasRenderingContext2D': The source ${w === 0 ? 'width' : 'height'} is 0.`, 'IndexSizeError');
    return new ImageData(w, h);
  }
  isPointInPath(): boolean { return false; }
  isPointInStroke(): boolean { return false; }
  getContextAttributes(): Record<string, unknown> {
    return { alpha: true, colorSpace: 'srgb', desynchronized: false, willReadFrequently: false };
  }
  translate(x: unknown, y: unknown): void { this.transform(1, 0, 0, 1, x, y); }
  scale(x: unknown, y: unknown): void { this.transform(x, 0, 0, y, 0, 0); }
  rotate(angle: unknown): void {
    const a = Number(angle);
    this.transform(Math.cos(a), Math.sin(a), -Math.sin(a), Math.cos(a), 0, 0);
  }
  transform(...m: unknown[]): void {
    if (m.length < 6 || !m.slice(0, 6).every(finite)) return;
    this.#state.transform = multiply(this.#state.transform, m.slice(0, 6).map(Number) as Matrix);
  }
  setTransform(...m: unknown[]): void {
    if (m.length === 0) return this.resetTransform();
    const o = m[0] as Record<string, unknown> | null;
    const values = m.length === 1 && typeof o === 'object' && o !== null ? ['a', 'b', 'c', 'd', 'e', 'f'].map((k) => o[k] ?? (k === 'a' || k === 'd' ? 1 : 0)) : m.slice(0, 6);
    if (values.length < 6 || !values.every(finite)) return;
    this.#state.transform = values.map(Number) as Matrix;
  }
  resetTransform(): void {
    this.#state.transform = [...IDENTITY];
  }
  getTransform(): Record<string, unknown> {
    const [a, b, c, d, e, f] = this.#state.transform;
    return { a, b, c, d, e, f, m11: a, m12: b, m21: c, m22: d, m41: e, m42: f, is2D: true, isIdentity: a === 1 && b === 0 && c === 0 && d === 1 && e === 0 && f === 0 };
  }
}

function defineState(): void {
  const proto = CanvasRenderingContext2D.prototype;
  const accessor = (key: string, accept: (v: unknown) => unknown) => Object.defineProperty(proto, key, {
    get(this: CanvasRenderingContext2D) { return stateOf(this).current.values[key]; },
    set(this: CanvasRenderingContext2D, v: unknown) {
      const accepted = accept(v);
      if (accepted !== undefined) stateOf(this).current.values[key] = accepted;
    },
    configurable: true,
    enumerable: true,
  });
  for (const [key, [, ok]] of Object.entries(NUMBERS)) accessor(key, (v) => (typeof v === 'number' || typeof v === 'string') && finite(v) && ok(Number(v)) ? Number(v) : undefined);
  for (const [key, allowed] of Object.entries(KEYWORDS)) accessor(key, (v) => (allowed.includes(String(v)) ? String(v) : undefined));
  for (const key of Object.keys(TEXTS)) accessor(key, (v) => (String(v).trim() === '' ? undefined : String(v)));
  for (const key of Object.keys(COLORS)) accessor(key, (v) => (v instanceof CanvasGradient || v instanceof CanvasPattern ? v : color(String(v))));
  accessor('imageSmoothingEnabled', Boolean);
  for (const name of DRAWING) Object.defineProperty(proto, name, { value: () => undefined, writable: true, configurable: true });
}
defineState();

/** Gives HTMLCanvasElement its size attributes, getContext and toDataURL (see the module comment). */
export function extendCanvas(HTMLCanvasElement: unknown): void {
  const proto = (HTMLCanvasElement as { prototype: object }).prototype;
  const contexts = new WeakMap<object, CanvasRenderingContext2D>();
  const size = (name: string, fallback: number): PropertyDescriptor => ({
    get(this: Element) {
      const n = parseInt(this.getAttribute(name) ?? '', 10);
      return Number.isNaN(n) || n < 0 ? fallback : n;
    },
    set(this: Element, v: unknown) { this.setAttribute(name, String(Number(v) >>> 0)); },
    configurable: true,
  });
  Object.defineProperties(proto, {
    width: size('width', 300),
    height: size('height', 150),
    getContext: {
      value(this: HTMLCanvasElement, type: unknown) {
        if (arguments.length === 0) throw new TypeError("Failed to execute 'getContext' on 'HTMLCanvasElement': 1 argument required, but only 0 present.");
        if (String(type) !== '2d') return null;
        let context = contexts.get(this);
        if (!context) contexts.set(this, (context = new CanvasRenderingContext2D(this)));
        return context;
      },
      writable: true,
      configurable: true,
    },
    toDataURL: {
      value(this: HTMLCanvasElement) { return this.width === 0 || this.height === 0 ? 'data:,' : BLANK_PNG; },
      writable: true,
      configurable: true,
    },
  });
}

/** The globals of this module, by name. */
export const CANVAS_GLOBALS = { CanvasRenderingContext2D, CanvasGradient, CanvasPattern, ImageData, Path2D };
