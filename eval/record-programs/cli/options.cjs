const FLAGS = {
  name: { type: 'string', default: 'world', help: 'who to greet' },
  count: { type: 'number', default: 1, help: 'how many times' },
  upper: { type: 'boolean', default: false, help: 'shout' },
  help: { type: 'boolean', default: false, help: 'print this text' },
};

function defaults() {
  const options = {};
  for (const [name, flag] of Object.entries(FLAGS)) options[name] = flag.default;
  return options;
}

function coerce(name, value) {
  const flag = FLAGS[name];
  if (flag === undefined) throw new Error(`unknown option --${name}`);
  if (flag.type === 'number') {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0) throw new Error(`--${name}: not a count: ${value}`);
    return n;
  }
  return value;
}

function parseArgs(argv) {
  const options = defaults();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) throw new Error(`unexpected argument ${arg}`);
    const [name, inline] = arg.slice(2).split('=');
    if (FLAGS[name]?.type === 'boolean') options[name] = true;
    else options[name] = coerce(name, inline ?? argv[++i]);
  }
  return options;
}

function usage() {
  const rows = Object.entries(FLAGS).map(([name, flag]) => `  --${name.padEnd(6)} ${flag.help} (default: ${flag.default})`);
  return ['usage: cli.cjs [options]', ...rows].join('\n');
}

module.exports = { parseArgs, usage };
