// Jest orders test files by the durations of the previous run (its cache), slowest first, so
// the last file to finish is a short one. A clean clone (CI) has no such cache and jest falls back
// to file size, which starts the long browser and process tests anywhere, often last on one
// worker while the other idles. Without durations, this runs them first: browser suites, then the
// other end-to-end ones, then the remaining integration files, unit files last; size within each.
const Sequencer = require('@jest/test-sequencer').default;

/** Folders whose end-to-end files drive a browser or start processes: the longest files. */
const BROWSER = /[\\/]tests[\\/](app|portal|edge)[\\/][^\\/]+\.e2e\.test\.ts$/;

function weight(testPath) {
  if (BROWSER.test(testPath)) return 3;
  if (testPath.endsWith('.e2e.test.ts')) return 2;
  if (testPath.endsWith('.unit.test.ts')) return 0;
  return 1;
}

class SlowFirstSequencer extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    if (sorted.some((test) => this.time(test) !== undefined)) return sorted;
    // A stable sort keeps jest's own order (size, largest first) within each weight.
    return [...sorted].sort((a, b) => weight(b.path) - weight(a.path));
  }
}

module.exports = SlowFirstSequencer;
