// The react environment: first each case runs its snippet on browser + react in a bare isolate
// (test/environmentHarness.ts) with virtual timers, then the environments' drivers, and compares
// what console.log printed; then end to end through runSnippet and the CLI (trace mode, the
// registry's environments selected by the names the snippet uses, JSX lowered).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runWithNode } from '../src/emit/runWithNode.ts';
import { runSnippet } from '../src/index.ts';
import type { RunResult } from '../src/core/runResult.ts';
import { reactMessage } from '../src/guest/environments/react/reactErrors.ts';
import { runWithEnvironments } from './environmentHarness.ts';
import { cli, selected } from './helpers.ts';

interface Case {
  readonly name: string;
  readonly code: string;
  readonly logs: readonly string[];
  readonly values?: Record<string, unknown>;
  /** The uncaught error, and the script it was raised in: the snippet's, or the environment's. */
  readonly error?: { readonly text: RegExp; readonly file: 'snippet' | 'env:react' };
}

const h = 'const h = React.createElement;\n';

const CASES: readonly Case[] = [
  {
    name: 'useState + onClick: the driver clicks once, the setter re-renders',
    code: `${h}function Counter() {
  const [count, setCount] = useState(0);
  console.log('render', count);
  useEffect(() => console.log('shown', document.getElementById('root').innerHTML));
  return h('button', { onClick: () => setCount(count + 1) }, count);
}
ReactDOM.render(h(Counter), document.getElementById('root'));`,
    logs: ['render 0', 'shown <button>0</button>', 'render 1', 'shown <button>1</button>'],
  },
  {
    name: 'useEffect with [] runs once after the render, one with [n] after each change of n; cleanups run before the next',
    code: `${h}function App() {
  const [n, setN] = useState(0);
  useEffect(() => { console.log('mount effect'); }, []);
  useEffect(() => { console.log('n effect', n); return () => console.log('n cleanup', n); }, [n]);
  console.log('render', n);
  return h('button', { onClick: () => setN(n + 1) }, 'go');
}
ReactDOM.render(h(App), document.getElementById('root'));
console.log('snippet done');`,
    logs: ['render 0', 'mount effect', 'n effect 0', 'snippet done', 'render 1', 'n cleanup 0', 'n effect 1'],
  },
  {
    name: 'useRef keeps its object across renders, useMemo recomputes only when its deps change, useCallback keeps its function',
    code: `${h}const seen = [];
function App() {
  const [n, setN] = useState(0);
  const ref = useRef({ renders: 0 });
  ref.current.renders++;
  const fixed = useMemo(() => { console.log('memo computed'); return 42; }, []);
  const cb = useCallback(() => setN((v) => v + 1), []);
  seen.push(cb);
  console.log('render', n, ref.current.renders, fixed, seen.length === 1 || seen[0] === cb);
  return h('button', { onClick: cb }, n);
}
ReactDOM.render(h(App), document.getElementById('root'));`,
    logs: ['memo computed', 'render 0 1 42 true', 'render 1 2 42 true'],
  },
  {
    name: 'useContext reads the nearest Provider, else the default value',
    code: `${h}const Theme = createContext('light');
function Label() { const theme = useContext(Theme); console.log('theme', theme); return h('span', null, theme); }
ReactDOM.render(h('div', null, h(Theme.Provider, { value: 'dark' }, h(Label)), h(Label)), document.getElementById('root'));
console.log(document.getElementById('root').innerHTML);`,
    logs: ['theme dark', 'theme light', '<div><span>dark</span><span>light</span></div>'],
  },
  {
    name: 'useReducer: a dispatch runs the reducer and re-renders',
    code: `${h}function reducer(state, action) {
  console.log('reduce', action.type);
  return action.type === 'add' ? { items: [...state.items, action.item] } : state;
}
function List() {
  const [state, dispatch] = useReducer(reducer, { items: [] });
  console.log('render', state.items.length);
  return h('button', { onClick: () => dispatch({ type: 'add', item: 'pen' }) }, 'add');
}
ReactDOM.render(h(List), document.getElementById('root'));`,
    logs: ['render 0', 'reduce add', 'render 1'],
  },
  {
    name: 'createRoot(…).render renders after the snippet, on the virtual timers; effects after the commit',
    code: `${h}function App() { console.log('render'); useEffect(() => console.log('effect')); return h('p', null, 'hi'); }
const root = ReactDOM.createRoot(document.getElementById('root'));
root.render(h(App));
console.log('snippet', JSON.stringify(document.getElementById('root').innerHTML));
setTimeout(() => console.log('later', document.getElementById('root').innerHTML), 10);`,
    logs: ['snippet ""', 'render', 'effect', 'later <p>hi</p>'],
  },
  {
    name: 'the bare createRoot global and require(\'react-dom/client\') are the same',
    code: `${h}createRoot(document.querySelector('#app')).render(h('i', null, 'x'));
console.log(require('react-dom/client').createRoot === createRoot, ReactDOM.createRoot === createRoot);
setTimeout(() => console.log(document.querySelector('#app').innerHTML), 10);`,
    logs: ['true true', '<i>x</i>'],
  },
  {
    name: 'ReactDOM.render (React 17) renders synchronously and calls its callback; unmountComponentAtNode empties the container',
    code: `${h}const el = document.getElementById('root');
ReactDOM.render(h('p', null, 'hi'), el, () => console.log('callback'));
console.log(el.innerHTML);
console.log(ReactDOM.unmountComponentAtNode(el), JSON.stringify(el.innerHTML));`,
    logs: ['callback', '<p>hi</p>', 'true ""'],
  },
  {
    name: 'a root\'s container stays the element it was (React\'s submit listener does not make a guessed element a form)',
    code: `${h}const el = document.getElementById('root');
createRoot(el);
ReactDOM.render(h('p'), document.querySelector('.other'));
console.log(el.tagName, document.querySelector('.other').tagName, el instanceof HTMLFormElement);`,
    logs: ['DIV DIV false'],
  },
  {
    name: 'a class component: constructor, render, componentDidMount; setState re-renders and componentDidUpdate follows',
    code: `${h}class Clock extends React.Component {
  constructor(props) { super(props); this.state = { ticks: 0 }; console.log('constructor', props.label); }
  componentDidMount() { console.log('mounted'); this.timer = setInterval(() => this.setState((s) => ({ ticks: s.ticks + 1 })), 1000); }
  componentDidUpdate() { console.log('updated', this.state.ticks); if (this.state.ticks === 2) clearInterval(this.timer); }
  render() { console.log('render', this.state.ticks); return h('h2', null, this.props.label, this.state.ticks); }
}
ReactDOM.render(h(Clock, { label: 'tick' }), document.getElementById('root'));`,
    logs: ['constructor tick', 'render 0', 'mounted', 'render 1', 'updated 1', 'render 2', 'updated 2'],
  },
  {
    name: 'onChange of a text input gets the typed value; the form\'s onSubmit runs after it, with the state it stored',
    code: `${h}function NameForm({ onSubmit }) {
  const [name, setName] = useState('');
  const submit = (e) => { e.preventDefault(); console.log('submit', JSON.stringify(name), e.defaultPrevented); if (name.trim() === '') return; onSubmit(name); setName(''); };
  return h('form', { onSubmit: submit }, h('input', { value: name, onChange: (e) => { console.log('change', e.type, e.target.value); setName(e.target.value); } }));
}
ReactDOM.render(h(NameForm, { onSubmit: (n) => console.log('hello', n) }), document.getElementById('root'));`,
    logs: ['change change text', 'submit "text" true', 'hello text'],
  },
  {
    name: 'a checkbox\'s onChange follows its click; a select\'s onChange gets another option',
    code: `${h}function Prefs() {
  return h('div', null,
    h('input', { type: 'checkbox', onChange: (e) => console.log('checked', e.target.checked) }),
    h('select', { defaultValue: 'a', onChange: (e) => console.log('picked', e.target.value) }, h('option', { value: 'a' }, 'A'), h('option', { value: 'b' }, 'B')));
}
ReactDOM.render(h(Prefs), document.getElementById('root'));`,
    logs: ['checked true', 'picked b'],
  },
  {
    name: 'hooks where no component renders (a component\'s body on its own): initial state, dispatch runs the reducer, effects run once after the snippet',
    code: `const [count, setCount] = useState(() => 5);
const [state, dispatch] = useReducer((s, a) => { console.log('reduce', a); return s + 1; }, 0);
dispatch('inc');
useEffect(() => { console.log('effect'); return () => console.log('never'); }, []);
const total = useMemo(() => count * 2, [count]);
const ref = useRef(null);
const cb = useCallback(() => 'cb', []);
const theme = useContext(createContext('light'));
setCount(9);
console.log(count, state, total, ref.current, cb(), theme);`,
    logs: ['reduce inc', '5 0 10 null cb light', 'effect'],
  },
  {
    name: 'the modules: react is React, react-dom has the legacy render, react/jsx-runtime builds elements',
    code: `const { jsx } = require('react/jsx-runtime');
console.log(require('react') === React, require('react').useState === useState, typeof require('react-dom').render, typeof React.version);
ReactDOM.render(jsx('p', { children: 'from jsx' }), document.getElementById('root'));
console.log(document.getElementById('root').innerHTML);`,
    logs: ['true true function string', '<p>from jsx</p>'],
  },
  {
    name: 'an error a component throws is the snippet\'s',
    code: `${h}function Boom() { const [user] = useState(null); return h('p', null, user.name); }
ReactDOM.render(h(Boom), document.getElementById('root'));
console.log('after');`,
    logs: ['after'],
    error: { text: /^TypeError: Cannot read properties of null \(reading 'name'\)$/, file: 'snippet' },
  },
  {
    name: 'an error a handler throws is the snippet\'s',
    code: `${h}ReactDOM.render(h('button', { onClick: () => { null.boom; } }), document.getElementById('root'));`,
    logs: [],
    error: { text: /^TypeError: Cannot read properties of null \(reading 'boom'\)$/, file: 'snippet' },
  },
  {
    name: 'an error React raises is the environment\'s, with React\'s message',
    code: `${h}ReactDOM.render(h('p', null, { a: 1 }), document.getElementById('root'));`,
    logs: [],
    error: { text: /^Error: Objects are not valid as a React child \(found: object with keys \{a\}\)/, file: 'env:react' },
  },
];

for (const c of selected(CASES)) {
  test(`react: ${c.name}`, { timeout: 60_000 }, async () => {
    const result = await runWithEnvironments(['react'], c.code, { timers: true, values: c.values ?? {} });
    if (c.error) {
      assert.match(result.error?.text ?? '', c.error.text);
      assert.match(result.error?.file ?? '', new RegExp(`^snipexec:${c.error.file}\\b`));
    } else assert.equal(result.error, undefined, result.error?.text);
    assert.deepEqual(result.logs, c.logs);
  });
}

test('react: loads on the browser environment and defines React, ReactDOM and the modules', { timeout: 60_000 }, async () => {
  const result = await runWithEnvironments(['react'], 'console.log(typeof React.createElement, typeof ReactDOM.createRoot, typeof useState, document.body.children.length)');
  assert.deepEqual(result.logs, ['function function function 0']);
  for (const m of ['react', 'react-dom', 'react-dom/client', 'react/jsx-runtime']) assert.ok(result.modules.includes(m), m);
});

test('react: minified React errors get their message back; unknown codes stay as React wrote them', () => {
  assert.equal(reactMessage('Minified React error #31; visit https://react.dev/errors/31?args[]=object%20with%20keys%20%7Ba%7D for the full message or use the non-minified dev environment for full errors and additional helpful warnings.'), 'Objects are not valid as a React child (found: object with keys {a}). If you meant to render a collection of children, use an array instead.');
  assert.equal(reactMessage('Minified React error #130; visit https://react.dev/errors/130?args[]=undefined&args[]= for the full message'), 'Element type is invalid: expected a string (for built-in components) or a class/function (for composite components) but got: undefined.');
  const unknown = 'Minified React error #9999; visit https://react.dev/errors/9999 for the full message';
  assert.equal(reactMessage(unknown), unknown);
  assert.equal(reactMessage('plain'), 'plain');
});

/** End to end through runSnippet: trace mode, JSX lowered, the environments the snippet's names select. */
interface EndToEnd {
  readonly name: string;
  readonly code: string;
  readonly check: (r: RunResult) => void;
}

const END_TO_END: readonly EndToEnd[] = [
  {
    name: 'a component with useState and onClick: the handler\'s lines are covered',
    code: `function Counter() {
  const [count, setCount] = useState(0);
  const increment = () => {
    console.log('clicked', count);
    setCount(count + 1);
  };
  return <button onClick={increment}>Clicked {count} times</button>;
}
ReactDOM.render(<Counter />, document.getElementById('root'));
`,
    check: (r) => {
      assert.equal(r.status, 'completed');
      assert.deepEqual(r.errors, []);
      assert.deepEqual(r.lines.uncovered, []);
      assert.equal(r.stdout, 'clicked 0\n');
      assert.deepEqual(r.environments?.loaded, ['browser', 'react']);
    },
  },
  {
    name: 'useEffect runs once after the render, also when a state change re-renders',
    code: `function Clock() {
  const [now, setNow] = useState(0);
  useEffect(() => {
    console.log('effect');
    setNow(1);
  }, []);
  console.log('render', now);
  return <p>{now}</p>;
}
const root = ReactDOM.createRoot(document.getElementById('root'));
root.render(<Clock />);
`,
    check: (r) => {
      assert.equal(r.status, 'completed');
      assert.deepEqual(r.errors, []);
      assert.equal(r.stdout, 'render 0\neffect\nrender 1\n');
      assert.deepEqual(r.lines.uncovered, []);
    },
  },
  {
    name: 'a component the snippet never renders is rendered with props learnt from its usage',
    code: `function UserCard({ user, tags, onSelect }) {
  const [open, setOpen] = useState(false);
  console.log(typeof user.name, user.name.toUpperCase().length > 0, tags.length, open);
  return (
    <div onClick={() => { setOpen(!open); onSelect(user.id); }}>
      <h2>{user.name}</h2>
      <ul>{tags.map((t) => <li key={t}>{t}</li>)}</ul>
    </div>
  );
}
`,
    check: (r) => {
      assert.equal(r.status, 'completed');
      assert.deepEqual(r.errors, []);
      assert.deepEqual(r.lines.uncovered, []);
      assert.match(r.stdout, /^string true \d+ false\nstring true \d+ true\n$/);
    },
  },
  {
    name: 'a component a rendered one renders is not rendered again on its own; a constructor function is not rendered',
    code: `function Item({ label }) {
  console.log('item', label);
  return <li>{label}</li>;
}
function List() {
  return <ul><Item label="a" /><Item label="b" /></ul>;
}
function Point(x) {
  this.x = x;
}
`,
    check: (r) => {
      assert.equal(r.status, 'completed');
      assert.deepEqual(r.errors, []);
      assert.equal(r.stdout, 'item a\nitem b\n');
      // Point is not rendered; drive calls it afterwards, plainly (it is no method).
      assert.deepEqual(r.lines.uncovered, []);
      assert.deepEqual(r.drives?.map((d) => d.target), ['Point']);
    },
  },
  {
    name: 'a listener an effect of a component the driver renders registers is fired too',
    code: `function App() {
  const [width, setWidth] = useState(window.innerWidth);
  useEffect(() => {
    const onResize = () => {
      console.log('resized');
      setWidth(window.innerWidth);
    };
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return <p>{width}</p>;
}
`,
    check: (r) => {
      assert.equal(r.status, 'completed');
      assert.deepEqual(r.errors, []);
      assert.deepEqual(r.lines.uncovered, []);
      assert.equal(r.stdout, 'resized\n');
    },
  },
  {
    name: 'default and namespace imports of react and react-dom/client; an exported component nothing renders is rendered',
    code: `import React, { useState } from 'react';
import ReactDOM from 'react-dom/client';
import * as Client from 'react-dom/client';

export default function App({ start }) {
  const [n, setN] = useState(start);
  return <button onClick={() => setN(n + 1)}>{n}</button>;
}
console.log(typeof React.createElement, ReactDOM.createRoot === Client.createRoot);
`,
    check: (r) => {
      assert.equal(r.status, 'completed');
      assert.deepEqual(r.errors, []);
      assert.deepEqual(r.lines.uncovered, []);
      assert.equal(r.stdout, 'function true\n');
    },
  },
  {
    name: 'an arrow component with an expression body that nothing renders is rendered, and its handler fired',
    code: `const Greeting = ({ name }) => (
  <button onClick={() => {
    console.log('hi', typeof name);
  }}>Hi</button>
);
`,
    check: (r) => {
      assert.equal(r.status, 'completed');
      assert.deepEqual(r.errors, []);
      assert.deepEqual(r.lines.uncovered, []);
      assert.match(r.stdout, /^hi /);
    },
  },
  {
    name: 'a snippet that is a component\'s body: its hooks run on their own, effects after it',
    code: `const [items, setItems] = useState([]);
useEffect(() => {
  fetch('/api/items')
    .then((res) => res.json())
    .then((data) => setItems(data));
}, []);
console.log('items', items.length);
`,
    check: (r) => {
      assert.equal(r.status, 'completed');
      assert.deepEqual(r.errors, []);
      assert.deepEqual(r.lines.uncovered, []);
      assert.equal(r.stdout, 'items 0\n');
    },
  },
  {
    name: 'an error the component throws is the snippet\'s',
    code: `function Profile({ user }) {
  return <p>{user.address.city}</p>;
}
ReactDOM.render(<Profile user={{}} />, document.getElementById('root'));
`,
    check: (r) => {
      assert.deepEqual(r.errors.map((e) => [e.type, e.message, e.attribution, e.line]), [['TypeError', "Cannot read properties of undefined (reading 'city')", 'snippet', 2]]);
    },
  },
  {
    name: 'an error React raises is the environment\'s, with React\'s message',
    code: `function Bad() {
  return <p>{{ a: 1 }}</p>;
}
ReactDOM.render(<Bad />, document.getElementById('root'));
`,
    check: (r) => {
      assert.deepEqual(r.errors.map((e) => [e.type, e.attribution]), [['Error', 'environment']]);
      assert.match(r.errors[0]?.message ?? '', /^Objects are not valid as a React child \(found: object with keys \{a\}\)/);
    },
  },
];

for (const c of selected(END_TO_END)) {
  test(`react end to end: ${c.name}`, { timeout: 120_000 }, async () => {
    c.check(await runSnippet(c.code, { lang: 'jsx', timeoutMs: 30_000 }));
  });
}

test('react end to end: JSX in a .jsx file through the CLI', { timeout: 120_000 }, () => {
  const file = fileURLToPath(new URL('./fixtures/react/todo.jsx', import.meta.url));
  const r = cli(['run', file, '--json'], undefined, 120_000);
  assert.equal(r.code, 0, r.stderr);
  const result = JSON.parse(r.stdout) as RunResult;
  assert.equal(result.status, 'completed');
  assert.deepEqual(result.errors, []);
  assert.deepEqual(result.environments?.loaded, ['browser', 'react']);
  assert.deepEqual(result.lines.uncovered, []);
  assert.equal(result.stdout, 'added text\nitems 1\n'); // the driver typed "text", then submitted
});

test('react end to end: the --emit program loads React in plain Node, renders the component with the learnt props and fires its handler', { timeout: 120_000 }, async () => {
  const code = `function UserCard({ user, onSelect }) {
  const [open, setOpen] = useState(false);
  console.log(typeof user.name, open);
  return <div onClick={() => { setOpen(!open); onSelect(user.id); }}><h2>{user.name}</h2></div>;
}
`;
  const r = await runSnippet(code, { lang: 'jsx', timeoutMs: 30_000 });
  assert.equal(r.status, 'completed', JSON.stringify(r.errors));
  assert.equal(r.stdout, 'string false\nstring true\n');
  const run = await runWithNode(r.program ?? '', { timeoutMs: 60_000 });
  assert.deepEqual([run.exitCode, run.output], [0, r.stdout], r.program);
});
