// Loaded by the extension host (extensionTestsPath): runs every *.test.js next to it with mocha and writes a
// small report the runner prints. Reporter lines carry a "[mocha]" tag so the harness can pick them out of
// the workbench's own log stream.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as util from 'node:util';
import * as vscode from 'vscode';
import Mocha from 'mocha';

export function run(): Promise<void> {
  (Mocha.reporters.Base as unknown as { consoleLog: (...a: unknown[]) => void }).consoleLog = (...a: unknown[]) =>
    console.log('[mocha]', util.format(...(a as [string, ...unknown[]])));
  // LSW_TEST_GREP runs only the tests whose titles match (while working on one suite).
  const grep = process.env.LSW_TEST_GREP;
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 30_000, reporter: 'spec', ...(grep ? { grep } : {}) });
  for (const f of fs.readdirSync(__dirname).sort()) {
    if (f.endsWith('.test.js')) mocha.addFile(path.join(__dirname, f));
  }
  return new Promise((resolve, reject) => {
    let passed = 0;
    let failed = 0;
    const runner = mocha.run((failures) => {
      const reportFile = process.env.LSW_TEST_REPORT;
      if (reportFile) {
        fs.writeFileSync(reportFile, JSON.stringify({ passed, failed, node: process.version, vscodeVersion: vscode.version }));
      }
      if (failures > 0) reject(new Error(`${failures} extension test(s) failed.`));
      else resolve();
    });
    runner.on('pass', () => passed++);
    runner.on('fail', () => failed++);
  });
}
