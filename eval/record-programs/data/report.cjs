// A data-processing script (CommonJS): builds 500 CSV lines from a seeded generator, parses them,
// and prints per-region totals and the best customers: about 12,000 calls of its own functions.
const REGIONS = ['north', 'south', 'east', 'west'];
const PRODUCTS = ['apple', 'pear', 'plum', 'fig', 'kiwi', 'lime'];

function random(seed) {
  let s = seed >>> 0;
  return function next() {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t ^= t + Math.imul(t ^ (t >>> 7), 61 | t);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick(next, list) {
  return list[Math.floor(next() * list.length)];
}

function makeCsv(lines, seed) {
  const next = random(seed);
  const out = ['id,customer,region,product,qty,price'];
  for (let i = 1; i <= lines; i++) {
    out.push([i, `c${Math.floor(next() * 300)}`, pick(next, REGIONS), pick(next, PRODUCTS), 1 + Math.floor(next() * 9), (next() * 20).toFixed(2)].join(','));
  }
  return out.join('\n');
}

function parseLine(header, line) {
  const cells = line.split(',');
  const row = {};
  header.forEach((name, i) => { row[name] = cells[i]; });
  return normalise(row);
}

function normalise(row) {
  return { id: Number(row.id), customer: row.customer, region: row.region, product: row.product, qty: toInt(row.qty), price: toCents(row.price) };
}

function toInt(text) {
  return Number.parseInt(text, 10);
}

function toCents(text) {
  return Math.round(Number(text) * 100);
}

function parseCsv(text) {
  const [head, ...lines] = text.split('\n');
  const header = head.split(',');
  return lines.map((line) => parseLine(header, line));
}

function lineTotal(row) {
  return row.qty * row.price;
}

function groupBy(rows, key) {
  const groups = new Map();
  for (const row of rows) {
    const k = row[key];
    groups.set(k, (groups.get(k) ?? 0) + lineTotal(row));
  }
  return groups;
}

function formatMoney(cents) {
  return `${(cents / 100).toFixed(2)}`.padStart(10);
}

function top(groups, n) {
  return [...groups].sort((a, b) => b[1] - a[1]).slice(0, n);
}

function main() {
  const rows = parseCsv(makeCsv(500, 42));
  for (const [region, cents] of groupBy(rows, 'region')) console.log(`${region.padEnd(6)} ${formatMoney(cents)}`);
  for (const [customer, cents] of top(groupBy(rows, 'customer'), 5)) console.log(`${customer.padEnd(6)} ${formatMoney(cents)}`);
}

main();
