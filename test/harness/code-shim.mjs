#!/usr/bin/env node
// A stand-in for the VS Code executable, for @vscode/test-electron's runTests({ vscodeExecutablePath }).
// runTests starts it with --extensionDevelopmentPath=… --extensionTestsPath=… (and flags meant for Electron,
// which do not apply here); it runs the suite in code-server + headless Chromium and exits with the
// extension host's exit code, as the desktop binary would.
import { runExtensionTests } from '../../scripts/lib/vscode.mjs';

const developmentPaths = [];
let testsPath;
let folder;
for (const arg of process.argv.slice(2)) {
  const m = /^--([^=]+)=(.*)$/.exec(arg);
  if (m?.[1] === 'extensionDevelopmentPath') developmentPaths.push(m[2]);
  else if (m?.[1] === 'extensionTestsPath') testsPath = m[2];
  else if (!arg.startsWith('-')) folder = arg;
}
if (!testsPath || developmentPaths.length === 0) {
  console.error('code-shim: needs --extensionDevelopmentPath=… and --extensionTestsPath=…');
  process.exit(2);
}
const code = await runExtensionTests({ extensionDevelopmentPath: developmentPaths, extensionTestsPath: testsPath, folder });
process.exit(code);
