import * as vscode from 'vscode';
import { readConnectionSettings } from '../common/config';
import { UserCancelled } from '../commands/registerCommand';
import type { Credentials } from './credentials';

/** Problems with a typed API key, or undefined when it looks usable. */
export function validateApiKeyInput(value: string): string | undefined {
  const key = value.trim();
  if (!key) return 'Enter your LangSmith API key.';
  if (/\s/.test(key)) return 'An API key has no spaces or line breaks.';
  if (key.length < 8) return 'That is too short to be a LangSmith API key.';
  return undefined;
}

/** Asks for the API key of the configured endpoint and keeps it in SecretStorage only. */
export async function signIn(credentials: Credentials, log: vscode.LogOutputChannel): Promise<void> {
  const { endpoint } = readConnectionSettings();
  const apiKey = await new Promise<string | undefined>((resolve) => {
    const input = vscode.window.createInputBox();
    input.title = 'Sign in to LangSmith';
    input.prompt = `API key for ${endpoint} (Settings → API Keys in LangSmith)`;
    input.placeholder = 'lsv2_…';
    input.password = true;
    input.ignoreFocusOut = true;
    let accepted = false;
    input.onDidChangeValue((v) => (input.validationMessage = v ? validateApiKeyInput(v) : undefined));
    input.onDidAccept(() => {
      const problem = validateApiKeyInput(input.value);
      if (problem) {
        input.validationMessage = problem;
        return;
      }
      accepted = true;
      resolve(input.value.trim());
      input.hide();
    });
    input.onDidHide(() => {
      if (!accepted) resolve(undefined);
      input.dispose();
    });
    input.show();
  });
  if (apiKey === undefined) throw new UserCancelled();
  await credentials.store(endpoint, apiKey);
  log.info(`Stored an API key for ${endpoint}.`);
  void vscode.window.showInformationMessage(`Signed in to ${endpoint}.`);
}

export async function signOut(credentials: Credentials, log: vscode.LogOutputChannel): Promise<void> {
  const { endpoint } = readConnectionSettings();
  await credentials.clear(endpoint);
  log.info(`Removed the stored API key for ${endpoint}.`);
  void vscode.window.showInformationMessage(`Signed out of ${endpoint}.`);
}
