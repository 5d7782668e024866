// Spec reporter that ends the run with the line CI counts: `N passed, N failed, N skipped`.
const Mocha = require('mocha');
const { EVENT_RUN_END } = Mocha.Runner.constants;
class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once(EVENT_RUN_END, () => {
      const s = runner.stats;
      process.nextTick(() => console.log(`${s.passes} passed, ${s.failures} failed, ${s.pending} skipped`));
    });
  }
}
module.exports = SummaryReporter;
