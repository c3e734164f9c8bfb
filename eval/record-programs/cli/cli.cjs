// A CPU-light CLI (CommonJS): parses its arguments, then prints a greeting or its usage.
const { parseArgs, usage } = require('./options.cjs');

function greeting(name, upper) {
  const text = `hello, ${name}!`;
  return upper ? text.toUpperCase() : text;
}

function main(argv) {
  const options = parseArgs(argv);
  if (options.help) {
    console.log(usage());
    return 0;
  }
  for (let i = 0; i < options.count; i++) console.log(`${i + 1}. ${greeting(options.name, options.upper)}`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
