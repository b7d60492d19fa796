import * as vscode from 'vscode';

/** The one output channel of the extension ("LangSmith"). API keys are never written to it. */
export function createLog(): vscode.LogOutputChannel {
  return vscode.window.createOutputChannel('LangSmith', { log: true });
}
