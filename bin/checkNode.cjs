'use strict';
// The Node.js snipexec runs on, checked before a wrong one fails obscurely: npm runs this file as
// snipexec's preinstall, before isolated-vm's install compiles anything (every preinstall of an
// install runs before any install script), and bin/snipexec.cjs asks it before loading the CLI.
// The requirement's one home is package.json's "engines". Plain CommonJS of any Node's syntax: an
// old Node must read this file to say it is too old.
var engines = require('../package.json').engines;
var minimum = Number(/\d+/.exec(engines.node)[0]);

/** What is wrong with Node `version` (process.version), in one line, or undefined when it will do. */
function nodeProblem(version, doing) {
  var major = Number(String(version).replace(/^v/, '').split('.')[0]);
  if (major >= minimum) return undefined;
  return 'snipexec needs Node.js ' + minimum + ' or later; this is Node.js ' + version + '. ' +
    'Use Node ' + minimum + ' (nvm install ' + minimum + '), or add it to this project with `npm i -D node@' + minimum + '`, then ' + doing + '.';
}

module.exports = { minimum: minimum, nodeProblem: nodeProblem };

// As the preinstall of an installed copy (a path under node_modules): npm runs it with the `node` its
// scripts find first on PATH (a project's node_modules/.bin, then the user's), the one that would
// build isolated-vm and run snipexec. In a clone, `npm install` installs the tools, Node 24 among them.
if (require.main === module && /[\\/]node_modules[\\/]/.test(__dirname)) {
  var problem = nodeProblem(process.version, 'install snipexec again');
  if (problem) {
    process.stderr.write(problem + '\n');
    process.exitCode = 1;
  }
}
