// Loads the built bundle (argv[2]) as the Functions worker would, with a stand-in for the
// worker's `@azure/functions-core` module that records every function the bundle registers, and
// prints the registrations as JSON. A load that throws prints the error's message on stderr and
// exits with 1.
const Module = require('node:module');

const registrations = [];
const core = {
  setProgrammingModel() {},
  registerHook: () => ({ dispose() {} }),
  log() {},
  registerFunction(metadata) {
    registrations.push(metadata);
    return { dispose() {} };
  },
};
const load = Module._load;
Module._load = function (request, ...rest) {
  return request === '@azure/functions-core' ? core : load.call(this, request, ...rest);
};

try {
  require(require('node:path').resolve(process.argv[2]));
} catch (error) {
  process.stderr.write(String(error && error.message));
  process.exit(1);
}
process.stdout.write(JSON.stringify(registrations));
