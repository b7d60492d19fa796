// The activation line in the log: the code's load as the host's marks for this extension give it (not the
// marks of another extension, not a half-recorded load), and the line the benchmark reads.
import assert from 'node:assert/strict';
import { activationLine, hostCodeLoadMs } from '../../src/activationTime';

describe('activation time', () => {
  const g = globalThis as { MonacoPerformanceMarks?: unknown };
  afterEach(() => {
    delete g.MonacoPerformanceMarks;
  });
  const withMarks = (marks: { name: string; startTime: number }[]) => {
    g.MonacoPerformanceMarks = { getMarks: () => marks };
  };

  it('reads this extension’s willLoad/didLoad marks, not those of the extensions loaded before it', () => {
    withMarks([
      { name: 'code/extHost/willLoadExtensionCode/vscode.merge-conflict', startTime: 4115 },
      { name: 'code/extHost/didLoadExtensionCode/vscode.merge-conflict', startTime: 4153 },
      { name: 'code/extHost/willLoadExtensionCode/langsmith-workbench.langsmith-workbench', startTime: 4153 },
      { name: 'code/extHost/didLoadExtensionCode/langsmith-workbench.langsmith-workbench', startTime: 4164 },
    ]);
    assert.equal(hostCodeLoadMs('langsmith-workbench.langsmith-workbench'), 11);
  });

  it('has no figure without the host’s marks, with only one of the two, or with marks out of order', () => {
    assert.equal(hostCodeLoadMs('a.b'), undefined);
    g.MonacoPerformanceMarks = { getMarks: () => 'not a list' };
    assert.equal(hostCodeLoadMs('a.b'), undefined);
    withMarks([{ name: 'code/extHost/willLoadExtensionCode/a.b', startTime: 10 }]);
    assert.equal(hostCodeLoadMs('a.b'), undefined);
    withMarks([
      { name: 'code/extHost/willLoadExtensionCode/a.b', startTime: 10 },
      { name: 'code/extHost/didLoadExtensionCode/a.b', startTime: 5 },
    ]);
    assert.equal(hostCodeLoadMs('a.b'), undefined);
  });

  it('writes the line the benchmark reads', () => {
    assert.equal(activationLine(11, 0.64, 31.7), 'Activated in 11.6 ms (code loaded in 11.0 ms, first part 0.6 ms); views and commands 31.7 ms later.');
    assert.equal(activationLine(6.2, 1, 120), 'Activated in 7.2 ms (code loaded in 6.2 ms, first part 1.0 ms); views and commands 120 ms later.');
  });
});
