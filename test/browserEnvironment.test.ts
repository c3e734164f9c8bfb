// The browser environment, unit-tested in a bare isolate (test/environmentHarness.ts): each case runs
// its snippet on the environment, then the environment's driver (the registered listeners fire), and
// compares what console.log printed. Values the environment asks for come from `values`.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseSelector } from '../src/guest/environments/browser/selectorSkeleton.ts';
import { runWithEnvironments } from './environmentHarness.ts';
import { selected, testSnippets, type SnippetCase } from './helpers.ts';

interface Case {
  readonly name: string;
  readonly code: string;
  readonly logs: readonly string[];
  readonly values?: Record<string, unknown>;
  /** The uncaught error, raised in the snippet's file. */
  readonly error?: RegExp;
}

const CASES: readonly Case[] = [
  {
    name: 'the global object is the window; document is a real page',
    code: 'console.log(window === globalThis, self === window, window.document === document, document.defaultView === window, document.body.tagName, document.body instanceof HTMLBodyElement, document.createElement("form") instanceof HTMLFormElement)',
    logs: ['true true true true BODY true true'],
  },
  {
    name: 'addEventListener("click", h) runs h once after the snippet, with a MouseEvent at the element',
    code: 'const b = document.querySelector("#b"); b.addEventListener("click", function (e) { console.log("clicked", e.constructor.name, e instanceof MouseEvent, e.target === b, this === b, e.button) }); console.log("snippet")',
    logs: ['snippet', 'clicked MouseEvent true true true 0'],
  },
  {
    name: 'preventDefault() returns undefined, as the real one does, and sets defaultPrevented',
    code: 'document.querySelector("a.link").addEventListener("click", (e) => { const r = e.preventDefault(); console.log(r === undefined, e.defaultPrevented) })',
    logs: ['true true'],
  },
  {
    name: 'the ASI case: a line starting with [ after e.preventDefault() indexes its undefined result',
    code: 'const x = 1, y = 2, f = console.log\ndocument.querySelector("#b").addEventListener("click", function (e) { e.preventDefault()\n[x, y].forEach(f) })',
    logs: [],
    error: /^TypeError: Cannot read properties of undefined \(reading '2'\)$/,
  },
  {
    name: 'an element the snippet queries exists, and an input has the learnt value (else empty)',
    code: 'const n = document.querySelector("#name"); console.log(n !== null, n.id, JSON.stringify(n.value), JSON.stringify(document.getElementById("age").value), document.querySelector("#name") === n)',
    values: { 'document.querySelector("#name").value': 'Ada' },
    logs: ['true name "Ada" "" true'],
  },
  {
    name: 'a value the snippet sets is the one it reads',
    code: 'const i = document.querySelector("input#q"); i.value = "typed"; console.log(i.value, i.tagName)',
    values: { 'document.querySelector("input#q").value': 'learnt' },
    logs: ['typed INPUT'],
  },
  {
    name: 'every query method creates what it looks for',
    code: 'console.log(document.getElementsByClassName("card").length, document.getElementsByTagName("section")[0].tagName, document.getElementsByName("email")[0].tagName, document.querySelectorAll("li.item").length, document.querySelector(".card") === document.getElementsByClassName("card")[0])',
    logs: ['1 SECTION INPUT 1 true'],
  },
  {
    name: 'a selector with combinators creates nested elements, reusing the part that exists',
    code: 'document.body.innerHTML = "<ul id=\\"list\\"></ul>"; const a = document.querySelector("#list > li.item a[href=\\"/x\\"]"); console.log(a.tagName, document.body.innerHTML)',
    logs: ['A <ul id="list"><li class="item"><a href="/x"></a></li></ul>'],
  },
  {
    name: 'queries on an element create inside it; a selector more specific than a new element can be still gets the element',
    code: 'const form = document.querySelector("form"); const e = form.querySelector("[name=email]"); const d = document.querySelector("p:nth-child(5)"); console.log(e.parentNode === form, e.tagName, d.tagName)',
    logs: ['true INPUT P'],
  },
  {
    name: 'a select has the option its learnt value names',
    code: 'const s = document.querySelector("select#color"); console.log(s.value, s.options.length, s.selectedIndex, s.options[0].textContent)',
    values: { 'document.querySelector("select#color").value': 'red' },
    logs: ['red 1 0 red'],
  },
  {
    name: 'localStorage round-trips (items, named properties, keys); sessionStorage is another store',
    code: 'localStorage.setItem("todos", JSON.stringify([1, 2])); localStorage.theme = "dark"; console.log(JSON.parse(localStorage.getItem("todos")).length, localStorage.getItem("theme"), localStorage.length, localStorage.key(0), localStorage.getItem("none"), sessionStorage.length, localStorage instanceof Storage); localStorage.removeItem("todos"); localStorage.clear(); console.log(localStorage.length)',
    logs: ['2 dark 2 todos null 0 true', '0'],
  },
  {
    name: 'fetch answers with the learnt JSON; an unknown URL gives {}; a body is read once',
    code: 'fetch("/api/users").then((r) => { console.log(r.ok, r.status); return r.json() }).then((users) => console.log(users[0].name)); fetch("/other").then((r) => r.json()).then((v) => console.log(JSON.stringify(v))); fetch("/t").then(async (r) => { console.log(await r.text()); await r.text() }).catch((e) => console.log(e.constructor.name))',
    values: { 'fetch("/api/users").json()': [{ name: 'Ada' }], 'fetch("/t").text()': 'hello' },
    logs: ['true 200', 'hello', 'Ada', '{}', 'TypeError'],
  },
  {
    name: 'XMLHttpRequest loads the learnt text and fires onload',
    code: 'const x = new XMLHttpRequest(); x.open("GET", "/api/t"); x.onload = function (e) { console.log(e.constructor.name, this.readyState, this.status, this.responseText) }; x.send()',
    values: { 'fetch("/api/t").text()': 'body' },
    logs: ['ProgressEvent 4 200 body'],
  },
  {
    name: 'DOMContentLoaded fires on the document, load on the window, in registration order',
    code: 'window.addEventListener("load", function (e) { console.log("load", this === window, e.target === window) }); document.addEventListener("DOMContentLoaded", (e) => console.log("ready", e.target === document, document.readyState)); console.log(document.readyState)',
    logs: ['loading', 'load true true', 'ready true complete'],
  },
  {
    name: 'on<event> properties fire like listeners; resize and scroll on the window',
    code: 'document.querySelector("#b").onclick = (e) => console.log("onclick", e.type); window.onload = () => console.log("onload"); window.addEventListener("resize", () => console.log("resize", innerWidth)); window.onscroll = () => console.log("scroll")',
    logs: ['onclick click', 'onload', 'resize 1280', 'scroll'],
  },
  {
    name: 'listeners registered while firing are fired too; each listener once; a removed one never',
    code: 'const h = () => console.log("never"); document.addEventListener("DOMContentLoaded", () => { document.querySelector("#late").addEventListener("click", () => console.log("late click")) }); const p = document.querySelector("#p"); const c = document.querySelector("#p #c"); p.addEventListener("click", () => console.log("parent")); c.addEventListener("click", () => console.log("child")); c.addEventListener("keyup", h); c.removeEventListener("keyup", h); document.addEventListener("keyup", (e) => console.log("document keyup at", e.target.tagName))',
    logs: ['parent', 'child', 'document keyup at BODY', 'late click'],
  },
  {
    name: 'keydown gets a KeyboardEvent whose key is learnt (else Enter); a document listener gets an element as target',
    code: 'document.addEventListener("keydown", (e) => console.log(e.constructor.name, e.key, e.target.tagName, typeof e.target.matches)); document.querySelector("#s").addEventListener("keyup", (e) => console.log("up", e.key))',
    values: { 'keyup event.key': 'Escape' },
    logs: ['KeyboardEvent Enter BODY function', 'up Escape'],
  },
  {
    name: 'input and change fire at an input that has a value; submit with a SubmitEvent at a form that has its fields',
    code: 'const f = document.querySelector("#signup"); f.addEventListener("submit", (e) => { e.preventDefault(); console.log(e.constructor.name, f.elements.email.value, new FormData(f).get("email")) }); document.querySelector("#q").addEventListener("input", (e) => console.log(e.constructor.name, e.target.value))',
    values: { 'form.elements.email.value': 'a@b.c', 'document.querySelector("#q").value': 'hi' },
    logs: ['SubmitEvent a@b.c a@b.c', 'InputEvent hi'],
  },
  {
    name: 'click() on a submit button submits its form; on a checkbox it checks it',
    code: 'document.body.innerHTML = "<form><input type=checkbox id=c><button id=go>Go</button></form>"; document.querySelector("form").addEventListener("submit", (e) => { e.preventDefault(); console.log("submitted", e.submitter.id) }, { once: true }); const c = document.querySelector("#c"); c.click(); console.log(c.checked); document.querySelector("#go").click()',
    logs: ['true', 'submitted go'],
  },
  {
    name: 'a custom event gets a CustomEvent whose detail is learnt (else {})',
    code: 'document.querySelector("#w").addEventListener("todo-added", (e) => console.log(e instanceof CustomEvent, e.detail.title)); window.addEventListener("x-ping", (e) => console.log(JSON.stringify(e.detail)))',
    values: { 'CustomEvent("todo-added").detail': { title: 'milk' } },
    logs: ['true milk', '{}'],
  },
  {
    name: 'location and history: pushState moves the location; setting the hash fires hashchange',
    code: 'console.log(location.href, location.origin); history.pushState({ page: 2 }, "", "/list?page=2"); console.log(location.pathname, location.search, history.state.page, history.length, document.location === location); addEventListener("hashchange", (e) => console.log("hash", e.newURL)); location.hash = "top"',
    logs: ['http://localhost/ http://localhost', '/list ?page=2 2 2 true', 'hash http://localhost/list?page=2#top'],
  },
  {
    name: 'dialogs print nothing: alert is undefined, confirm true, prompt the learnt answer (else empty)',
    code: 'console.log(alert("hi"), confirm("sure?"), JSON.stringify(prompt("name?")), JSON.stringify(prompt("age?")))',
    values: { 'prompt("name?")': 'Zed' },
    logs: ['undefined true "Zed" ""'],
  },
  {
    name: 'requestAnimationFrame runs through the timers; navigator, cookies, matchMedia',
    code: 'requestAnimationFrame((t) => console.log("frame", typeof t)); document.cookie = "a=1"; document.cookie = "b=2; path=/"; console.log(navigator.language, document.cookie, matchMedia("(min-width: 600px)").matches)',
    logs: ['en-US a=1; b=2 false', 'frame number'],
  },
  {
    name: 'a queried element has the relatives the snippet reads: siblings of the tag its own implies',
    code: 'const h = document.querySelector(".accordion-header"); const p = h.nextElementSibling; p.style.maxHeight = "10px"; console.log(p.tagName, p.previousElementSibling === h, h.nextElementSibling === p, document.querySelector("ul#l li.item").previousElementSibling.tagName, document.querySelector("form label.l").nextElementSibling.tagName)',
    logs: ['DIV true true LI INPUT'],
  },
  {
    name: 'a queried element has the children and ancestors the snippet reads: children[i], first/lastElementChild, closest(selector)',
    code: 'const ul = document.querySelector("ul#list"); console.log(ul.firstElementChild.tagName, ul.children[2].tagName, ul.children.length, ul.lastElementChild === ul.children[2]); const del = document.querySelector(".delete"); const card = del.closest(".card"); console.log(card.className, card.contains(del), del.closest(".card") === card, document.querySelector(".card .delete") === del)',
    logs: ['LI LI 3 true', 'card true true true'],
  },
  {
    name: 'a relative made for the page is named after the element it was read from, so it carries learnt text and attributes too',
    code: 'const h = document.querySelector(".h"); console.log(h.nextElementSibling.textContent, h.closest(".card").dataset.id, document.querySelector("ul#u").children[1].textContent)',
    values: { 'document.querySelector(".h").nextElementSibling.textContent': 'panel text', 'document.querySelector(".h").closest(".card").getAttribute("data-id")': '5', 'document.querySelector("ul#u").children[1].textContent': 'second' },
    logs: ['panel text 5 second'],
  },
  {
    name: 'elements the snippet created keep plain DOM semantics: no relatives are invented for them',
    code: 'const d = document.createElement("div"); document.body.append(d); console.log(d.nextElementSibling, d.firstElementChild, d.children.length, d.children[0], d.closest(".card")); d.innerHTML = "<p></p>"; console.log(d.firstElementChild.nextElementSibling)',
    logs: ['null null 0 undefined null', 'null'],
  },
  {
    name: 'relatives made for the page make none of their own: a walk along siblings or down first children ends',
    code: 'let n = document.querySelector(".step"), k = 0; while ((n = n.nextElementSibling)) k++; let m = document.querySelector(".box"), depth = 0; while ((m = m.firstElementChild)) depth++; console.log(k, depth)',
    logs: ['1 1'],
  },
  {
    name: "the environment's own traversal creates nothing: click() on a button outside any form looks for its form and finds none",
    code: 'const b = document.querySelector("button#go"); b.click(); console.log(b.parentElement.tagName, document.body.children.length)',
    logs: ['BODY 1'],
  },
  {
    name: 'an element guessed from its id becomes a table when the snippet calls table methods; insertRow/insertCell as the standard defines them',
    code: 'const t = document.getElementById("users"); const r = t.insertRow(); r.insertCell(0).textContent = "a"; r.insertCell(1).textContent = "b"; t.insertRow(0).insertCell().textContent = "first"; console.log(t.tagName, t instanceof HTMLTableElement, t.rows.length, t.tBodies.length, t.rows[1].cells[1].textContent, r.rowIndex, r.cells[1].cellIndex, r.cells[0].colSpan); console.log(t.innerHTML)',
    logs: ['TABLE true 2 1 b 1 1 1', '<tbody><tr><td>first</td></tr><tr><td>a</td><td>b</td></tr></tbody>'],
  },
  {
    name: 'the table API: sections in their places, rows in head-body-foot order, IndexSizeError past the end',
    code: 'const t = document.createElement("table"); t.createTFoot().insertRow().insertCell().textContent = "foot"; const h = t.createTHead(); h.insertRow().insertCell().textContent = "head"; t.createTBody().insertRow().insertCell().textContent = "body"; console.log([...t.rows].map((r) => r.textContent).join(), [...t.children].map((c) => c.localName).join(), t.tHead === h, t.createTHead() === h, h instanceof HTMLTableSectionElement); try { t.insertRow(9) } catch (e) { console.log(e.name) } t.deleteRow(-1); t.deleteTHead(); console.log([...t.rows].map((r) => r.textContent).join(), t.createCaption().tagName, t.firstElementChild.localName, t.tBodies[0].rows[0].sectionRowIndex)',
    logs: ['head,body,foot thead,tfoot,tbody true true true', 'IndexSizeError', 'body CAPTION caption 0'],
  },
  {
    name: "an element guessed from its id becomes a canvas when the snippet calls getContext; the 2d context keeps its state and draws nothing; webgl is null",
    code: 'const c = document.getElementById("chart"); const ctx = c.getContext("2d"); ctx.fillStyle = "#36A"; ctx.lineWidth = -1; ctx.fillRect(0, 0, 10, 10); ctx.save(); ctx.font = "20px serif"; ctx.fillStyle = "red"; const w = ctx.measureText("abcd").width; ctx.restore(); console.log(c.tagName, c.width, c.height, ctx instanceof CanvasRenderingContext2D, ctx.canvas === c, c.getContext("2d") === ctx, ctx.fillStyle, ctx.lineWidth, w, ctx.font, ctx.fillRect(1, 1, 1, 1), c.getContext("webgl"), ctx.getImageData(0, 0, 1, 1).data.join())',
    logs: ['CANVAS 300 150 true true true #3366aa 1 40 10px sans-serif undefined null 0,0,0,0'],
  },
  {
    name: 'a guessed element becomes what its members say (a checkbox with its learnt checked, a form with its fields); an element of a known tag stays',
    code: 'const a = document.getElementById("agree"); console.log(a.checked, a.tagName, a.type); const f = document.querySelector(".signup"); console.log(f.elements.email.tagName, f.tagName, typeof document.querySelector("div.x").insertRow)',
    values: { 'document.getElementById("agree").checked': true },
    logs: ['true INPUT checkbox', 'INPUT FORM undefined'],
  },
  {
    name: 'an empty queried element has the text its usage implies (learnt, else none); text the snippet sets wins; its own elements have none',
    code: 'const p = document.querySelector(".price"); console.log(p.textContent, p.innerText, p.childNodes.length, document.createElement("span").textContent === ""); const q = document.querySelector(".q"); q.textContent = "mine"; console.log(q.textContent, JSON.stringify(document.querySelector(".none").textContent))',
    values: { 'document.querySelector(".price").textContent': '12.50', 'document.querySelector(".q").textContent': 'learnt' },
    logs: ['12.50 12.50 1 true', 'mine ""'],
  },
  {
    name: 'a queried element has the data-*, aria-*, href, src, title and alt attributes its usage implies (getAttribute, dataset); others stay absent',
    code: 'const c = document.querySelector(".card"); console.log(c.dataset.price, c.getAttribute("data-qty"), c.getAttribute("data-none"), c.getAttribute("class"), c.hasAttribute("data-price"), c.getAttribute("role"), c.dataset.price === c.getAttribute("data-price"))',
    values: { 'document.querySelector(".card").getAttribute("data-price")': '9.5', 'document.querySelector(".card").getAttribute("data-qty")': 2, 'document.querySelector(".card").getAttribute("role")': 'button' },
    logs: ['9.5 2 null card true null true'],
  },
  {
    name: "a learnt object where the DOM holds a string (a control's value, a text, an attribute) is the generator's default string, never [object Object]; the DOM library's own matching learns nothing",
    code: 'console.log(JSON.stringify(document.querySelector("#n").value), JSON.stringify(document.querySelector(".t").textContent), document.querySelector(".t").getAttribute("data-x")); const c = document.querySelector(".card"); console.log(c.matches("[data-price]"), c.hasAttribute("data-price"))',
    values: { 'document.querySelector("#n").value': {}, 'document.querySelector(".t").textContent': {}, 'document.querySelector(".t").getAttribute("data-x")': { a: 1 }, 'document.querySelector(".card").getAttribute("data-price")': '1' },
    logs: ['"example" "example" example', 'false false'],
  },
  {
    name: "a guessed element's watched members are none of its own properties: code that reads every own property of it leaves it what it is",
    code: 'const d = document.querySelector("#d"); for (const k of Reflect.ownKeys(d)) void d[k]; console.log(Object.getOwnPropertyNames(d).some((k) => k === "insertRow" || k === "getContext"), d.tagName, d instanceof HTMLDivElement); console.log(document.querySelector("#c").getContext("2d") !== null, document.querySelector("#c").tagName)',
    logs: ['false DIV true', 'true CANVAS'],
  },
  {
    name: 'nothing of the host: the module loader linkedom would reach is back as it was, atob and btoa are the browser\'s',
    code: 'console.log(typeof require, atob(btoa("héllo")) === "héllo", btoa("hi"))',
    logs: ['function true aGk='],
  },
];

for (const c of selected(CASES)) {
  test(`browser: ${c.name}`, { timeout: 60_000 }, async () => {
    const result = await runWithEnvironments(['browser'], c.code, { timers: true, values: c.values ?? {} });
    if (c.error) {
      assert.match(result.error?.text ?? '', c.error);
      assert.match(result.error?.file ?? '', /^snipexec:snippet\b/);
    } else assert.equal(result.error, undefined, result.error?.text);
    assert.deepEqual(result.logs, c.logs);
  });
}

/** The selector chains queries create: [selector, compounds as tag#id.classes[attrs], combinators] (undefined: not simple). */
const SELECTORS: readonly (readonly [string, string[] | undefined, string[]?])[] = [
  ['#name', ['?#name'], []],
  ['input.big[name="q"]', ['input.big[name=q]'], []],
  ['#list > li.item a[href="/x"]', ['?#list', 'li.item', 'a[href=/x]'], ['>', ' ']],
  ['h1 + p ~ span', ['h1', 'p', 'span'], ['+', '~']],
  ["input[type=checkbox]:checked, .other", ['input[type=checkbox][checked=]'], []],
  [':scope > li:nth-child(2n+1)', ['li'], []],
  ['a[data-id=\'7\' i]', ['a[data-id=7]'], []],
  ['#a\\:b', ['?#a:b'], []],
  ['', undefined],
  [':hover', undefined],
  ['div!', undefined],
  ['.a div.b', ['?.a', 'div.b'], [' ']],
];

for (const [selector, compounds, combinators] of SELECTORS) {
  test(`browser: selector ${JSON.stringify(selector)}`, () => {
    const parsed = parseSelector(selector);
    if (compounds === undefined) return assert.equal(parsed, undefined);
    const shown = parsed?.compounds.map((c) => `${c.tag ?? '?'}${c.id !== undefined ? `#${c.id}` : ''}${c.classes.map((k) => `.${k}`).join('')}${c.attributes.map(([n, v]) => `[${n}=${v}]`).join('')}`);
    assert.deepEqual(shown, compounds.map((c) => (/^[?a-z]/.test(c) ? c : `?${c}`)));
    assert.deepEqual(parsed?.combinators, combinators);
  });
}

const END_TO_END: readonly SnippetCase[] = [
  {
    name: "the accordion: the header's panel (its next sibling) exists, through the runtime's member hooks",
    code: "document.querySelectorAll('.accordion-header').forEach(header => {\n  header.addEventListener('click', () => {\n    const panel = header.nextElementSibling;\n    header.classList.toggle('active');\n    if (panel.style.maxHeight) {\n      panel.style.maxHeight = null;\n    } else {\n      panel.style.maxHeight = panel.scrollHeight + 'px';\n    }\n  });\n});\n",
    check: (r) => {
      assert.deepEqual(r.errors, []);
      assert.equal(r.status, 'completed');
      assert.deepEqual(r.lines.uncovered, [6]); // one click: the panel opens
    },
  },
  {
    name: 'a table and a canvas from their usage',
    code: "const table = document.getElementById('users');\nconst row = table.insertRow();\nrow.insertCell(0).textContent = 'x';\nconst ctx = document.getElementById('chart').getContext('2d');\nctx.fillStyle = '#36a';\nctx.fillRect(0, 0, ctx.canvas.width / 2, 10);\nconsole.log(table.rows.length, ctx.fillStyle);\n",
    check: (r) => {
      assert.deepEqual(r.errors, []);
      assert.deepEqual(r.lines.uncovered, []);
      assert.equal(r.stdout, '1 #3366aa\n');
    },
  },
  {
    name: "addEventListener('click', h) runs h: its lines are covered",
    code: "const b = document.querySelector('#b');\nfunction h(e) {\n  e.preventDefault();\n  console.log('clicked', e.type);\n}\nb.addEventListener('click', h);\n",
    check: (r) => {
      assert.equal(r.status, 'completed');
      assert.deepEqual(r.errors, []);
      assert.deepEqual(r.lines.uncovered, []);
      assert.equal(r.stdout, 'clicked click\n');
      assert.deepEqual(r.environments?.loaded, ['browser']);
    },
  },
  {
    name: 'the ASI case in a click handler throws, attributed to the snippet (x and y learnt)',
    code: "document.querySelector('#b').addEventListener('click', function (e) { e.preventDefault()\n[x, y].forEach(f) })\n",
    check: (r) => {
      assert.equal(r.errors.length, 1);
      const [e] = r.errors;
      // V8 names the key it read of undefined: the value of y (`[x, y]` is an index with a comma).
      assert.match(`${e?.type}: ${e?.message}`, /^TypeError: Cannot read properties of undefined \(reading '[^']*'\)$/);
      assert.equal(e?.attribution, 'snippet');
      // Where Node points: the `[` that starts line 2, not the line the expression starts on.
      assert.deepEqual([e?.line, e?.column], [2, 1]);
    },
  },
  {
    name: 'the ASI case with x and y declared: the exact message',
    code: "const x = 1, y = 2, f = console.log\ndocument.querySelector('#b').addEventListener('click', function (e) { e.preventDefault()\n[x, y].forEach(f) })\n",
    check: (r) => {
      assert.deepEqual(r.errors.map((e) => [e.type, e.message, e.attribution]), [['TypeError', "Cannot read properties of undefined (reading '2')", 'snippet']]);
    },
  },
  {
    name: 'learnt from usage: an input value, fetched JSON, the key a keydown handler compares',
    code: "const name = document.querySelector('#name').value.trim();\nif (name.length > 0) {\n  console.log('hi');\n}\nfetch('/api/users')\n  .then((r) => r.json())\n  .then((users) => {\n    users.forEach((u) => console.log(u.name.toUpperCase().length > 0));\n  });\ndocument.addEventListener('keydown', (e) => {\n  if (e.key === 'Escape') console.log('esc');\n});\n",
    check: (r) => {
      assert.equal(r.status, 'completed');
      assert.deepEqual(r.errors, []);
      assert.deepEqual(r.lines.uncovered, []);
      assert.equal(r.stdout, 'hi\ntrue\nesc\n');
    },
  },
];

testSnippets('browser end to end', END_TO_END);
