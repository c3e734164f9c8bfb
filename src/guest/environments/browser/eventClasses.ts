/**
 * The event classes a browser has and linkedom lacks (MouseEvent, KeyboardEvent, SubmitEvent, …),
 * built on linkedom's Event so dispatch, preventDefault and instanceof behave as one family.
 */
import { linkedom } from './dom.ts';

type EventInit = Record<string, unknown>;
type EventClass = new (type: string, init?: EventInit) => Event;

const BaseEvent = linkedom.Event as unknown as EventClass;

/** A subclass of `Base` named `name` whose instances take `defaults`' keys from the init dictionary. */
function eventClass(name: string, Base: EventClass, defaults: Readonly<EventInit>): EventClass {
  const C = class extends Base {
    constructor(type: string, init: EventInit = {}) {
      if (arguments.length === 0) throw new TypeError(`Failed to construct '${name}': 1 argument required, but only 0 present.`);
      super(type, init);
      const self = this as unknown as EventInit;
      for (const key of Object.keys(defaults)) self[key] = init != null && init[key] !== undefined ? init[key] : defaults[key];
    }
  };
  Object.defineProperty(C, 'name', { value: name });
  Object.defineProperty(C.prototype, Symbol.toStringTag, { value: name, configurable: true });
  return C;
}

const modifiers = { ctrlKey: false, shiftKey: false, altKey: false, metaKey: false };
const getModifierState = function getModifierState() {
  return false;
};

for (const [C, name] of [[BaseEvent, 'Event'], [linkedom.CustomEvent, 'CustomEvent'], [linkedom.InputEvent, 'InputEvent']] as const) {
  Object.defineProperty(C.prototype, Symbol.toStringTag, { value: name, configurable: true });
}
export const UIEvent = eventClass('UIEvent', BaseEvent, { view: null, detail: 0, which: 0 });
export const MouseEvent = eventClass('MouseEvent', UIEvent, {
  ...modifiers, screenX: 0, screenY: 0, clientX: 0, clientY: 0, pageX: 0, pageY: 0, offsetX: 0, offsetY: 0, x: 0, y: 0,
  movementX: 0, movementY: 0, button: 0, buttons: 0, relatedTarget: null,
});
export const PointerEvent = eventClass('PointerEvent', MouseEvent, { pointerId: 1, width: 1, height: 1, pressure: 0, tiltX: 0, tiltY: 0, pointerType: 'mouse', isPrimary: true });
export const WheelEvent = eventClass('WheelEvent', MouseEvent, { deltaX: 0, deltaY: 0, deltaZ: 0, deltaMode: 0 });
export const DragEvent = eventClass('DragEvent', MouseEvent, { dataTransfer: null });
export const KeyboardEvent = eventClass('KeyboardEvent', UIEvent, { ...modifiers, key: '', code: '', keyCode: 0, charCode: 0, location: 0, repeat: false, isComposing: false });
export const FocusEvent = eventClass('FocusEvent', UIEvent, { relatedTarget: null });
export const TouchEvent = eventClass('TouchEvent', UIEvent, { ...modifiers, touches: [], targetTouches: [], changedTouches: [] });
export const CompositionEvent = eventClass('CompositionEvent', UIEvent, { data: '' });
export const SubmitEvent = eventClass('SubmitEvent', BaseEvent, { submitter: null });
export const HashChangeEvent = eventClass('HashChangeEvent', BaseEvent, { oldURL: '', newURL: '' });
export const PopStateEvent = eventClass('PopStateEvent', BaseEvent, { state: null });
export const MessageEvent = eventClass('MessageEvent', BaseEvent, { data: null, origin: '', lastEventId: '', source: null, ports: [] });
export const StorageEvent = eventClass('StorageEvent', BaseEvent, { key: null, oldValue: null, newValue: null, url: '', storageArea: null });
export const ProgressEvent = eventClass('ProgressEvent', BaseEvent, { lengthComputable: false, loaded: 0, total: 0 });
export const ErrorEvent = eventClass('ErrorEvent', BaseEvent, { message: '', filename: '', lineno: 0, colno: 0, error: null });
export const AnimationEvent = eventClass('AnimationEvent', BaseEvent, { animationName: '', elapsedTime: 0, pseudoElement: '' });
export const TransitionEvent = eventClass('TransitionEvent', BaseEvent, { propertyName: '', elapsedTime: 0, pseudoElement: '' });
for (const C of [MouseEvent, KeyboardEvent, TouchEvent]) Object.defineProperty(C.prototype, 'getModifierState', { value: getModifierState, writable: true, configurable: true });

/** Every event class a snippet may name, by its global name. */
export const EVENT_CLASSES: Readonly<Record<string, unknown>> = {
  Event: linkedom.Event, CustomEvent: linkedom.CustomEvent, InputEvent: linkedom.InputEvent,
  UIEvent, MouseEvent, PointerEvent, WheelEvent, DragEvent, KeyboardEvent, FocusEvent, TouchEvent, CompositionEvent,
  SubmitEvent, HashChangeEvent, PopStateEvent, MessageEvent, StorageEvent, ProgressEvent, ErrorEvent, AnimationEvent, TransitionEvent,
};
