// Sign in: pick the endpoint (LangSmith US/EU, the local server, or any URL), then the API key, checked with a
// real call before it is stored. The key goes to SecretStorage only, filed under its endpoint. When LangSmith's
// CLI has left profiles in ~/.langsmith/config.json, each is offered first (its endpoint and key, checked the same way;
// or, for a profile with only an OAuth login, the login itself: the extension keeps which profile, never its token).
import * as vscode from 'vscode';
import { ConfigKeys } from '../constants';
import { LangSmithAuthError, LangSmithError } from '../client/errors';
import { UserCancelled } from '../common/cancelled';
import { normalizeEndpoint, readConnectionSettings } from '../common/config';
import { validateApiKeyInput, validateEndpointInput } from '../common/validation';
import { createClient } from './clientService';
import type { Credentials, ProfileRef } from './credentials';
import { pickProfile } from './profilePick';

export const ENDPOINT_PRESETS = [
  { label: vscode.l10n.t('LangSmith (US)'), endpoint: 'https://api.smith.langchain.com' },
  { label: vscode.l10n.t('LangSmith (EU)'), endpoint: 'https://eu.api.smith.langchain.com' },
  { label: vscode.l10n.t('Local server'), endpoint: 'http://127.0.0.1:1984', detail: vscode.l10n.t('npm run server -- --seed demo; API key local-dev-key') },
] as const;

async function pickEndpoint(current: string): Promise<string> {
  type Item = vscode.QuickPickItem & { endpoint?: string };
  const items: Item[] = ENDPOINT_PRESETS.map((p) => ({
    label: p.label,
    description: p.endpoint,
    detail: 'detail' in p ? p.detail : undefined,
    endpoint: p.endpoint,
  }));
  if (!items.some((i) => i.endpoint === current)) items.unshift({ label: vscode.l10n.t('Current endpoint'), description: current, endpoint: current });
  items.push({ label: vscode.l10n.t('Other URL…'), description: vscode.l10n.t('A self-hosted LangSmith, e.g. {0}', 'https://langsmith.example.com/api/v1') });
  const quickPick = vscode.window.createQuickPick<Item>();
  quickPick.title = vscode.l10n.t('Sign in to LangSmith (1/2): endpoint');
  quickPick.placeholder = vscode.l10n.t('Where is your LangSmith?');
  quickPick.items = items;
  quickPick.activeItems = items.filter((i) => i.endpoint === current);
  quickPick.ignoreFocusOut = true;
  const picked = await new Promise<Item | undefined>((resolve) => {
    quickPick.onDidAccept(() => resolve(quickPick.selectedItems[0]));
    quickPick.onDidHide(() => resolve(undefined));
    quickPick.show();
  });
  quickPick.dispose();
  if (!picked) throw new UserCancelled();
  if (picked.endpoint) return picked.endpoint;
  const typed = await vscode.window.showInputBox({
    title: vscode.l10n.t('Sign in to LangSmith (1/2): endpoint'),
    prompt: vscode.l10n.t('The API URL of your LangSmith'),
    placeHolder: 'https://langsmith.example.com/api/v1',
    value: current,
    ignoreFocusOut: true,
    validateInput: validateEndpointInput,
  });
  if (typed === undefined) throw new UserCancelled();
  return normalizeEndpoint(typed);
}

/** Asks for the key until LangSmith accepts it (or the user gives up). */
async function askVerifiedKey(endpoint: string, workspaceId: string | undefined, log: vscode.LogOutputChannel): Promise<string> {
  const input = vscode.window.createInputBox();
  input.title = vscode.l10n.t('Sign in to LangSmith (2/2): API key');
  input.prompt = vscode.l10n.t('API key for {0} (LangSmith → Settings → API Keys)', endpoint);
  input.placeholder = 'lsv2_…';
  input.password = true;
  input.ignoreFocusOut = true;
  try {
    return await new Promise<string>((resolve, reject) => {
      let settled = false;
      input.onDidChangeValue((v) => (input.validationMessage = v ? validateApiKeyInput(v) : undefined));
      input.onDidAccept(async () => {
        const problem = validateApiKeyInput(input.value);
        if (problem) {
          input.validationMessage = problem;
          return;
        }
        const key = input.value.trim();
        input.busy = true;
        input.enabled = false;
        const verdict = await verifyKey(endpoint, key, workspaceId);
        input.busy = false;
        input.enabled = true;
        if (verdict) {
          log.warn(`Sign-in check against ${endpoint} failed: ${verdict}`);
          input.validationMessage = verdict;
          return;
        }
        settled = true;
        resolve(key);
        input.hide();
      });
      input.onDidHide(() => {
        if (!settled) reject(new UserCancelled());
      });
      input.show();
    });
  } finally {
    input.dispose();
  }
}

/** Undefined when the key works; otherwise what went wrong, in words for the input box. */
export async function verifyKey(endpoint: string, apiKey: string, workspaceId: string | undefined): Promise<string | undefined> {
  try {
    await (await createClient(endpoint, { apiKey }, workspaceId)).settings();
    return undefined;
  } catch (err) {
    if (err instanceof LangSmithAuthError) {
      return err.status === 403
        ? vscode.l10n.t('LangSmith accepted the key but not for this workspace (403).')
        : vscode.l10n.t('LangSmith rejected this API key (401). Check that it is complete and not revoked.');
    }
    if (err instanceof LangSmithError && err.status !== undefined) return vscode.l10n.t('LangSmith answered {0}: {1}', err.status, err.message);
    return vscode.l10n.t('Could not reach {0}: {1}', endpoint, err instanceof Error ? err.message : String(err));
  }
}

/** Undefined when the profile's login works (renewing it in its file if due); otherwise what went wrong, in words. */
async function verifyLogin(endpoint: string, profile: ProfileRef, workspaceId: string | undefined, log: vscode.LogOutputChannel): Promise<string | undefined> {
  try {
    await (await createClient(endpoint, { profile }, workspaceId)).settings();
    return undefined;
  } catch (err) {
    if (err instanceof LangSmithAuthError) {
      // The client's message names the profile and file and what to do, never a token.
      log.warn(`The login of profile "${profile.name}" was refused: ${err.message}`);
      return err.status === 403
        ? vscode.l10n.t('LangSmith accepted the login but not for this workspace (403).')
        : vscode.l10n.t('LangSmith refused this login: {0}', err.message.split('\n').join(' '));
    }
    if (err instanceof LangSmithError && err.status !== undefined) return vscode.l10n.t('LangSmith answered {0}: {1}', err.status, err.message);
    return vscode.l10n.t('Could not reach {0}: {1}', endpoint, err instanceof Error ? err.message : String(err));
  }
}

export async function signIn(credentials: Credentials, log: vscode.LogOutputChannel): Promise<void> {
  const settings = readConnectionSettings();
  const profile = await pickProfile(log);
  if (profile) {
    const endpoint = normalizeEndpoint(profile.endpoint);
    const workspaceId = profile.workspaceId ?? settings.workspaceId;
    let apiKey = profile.apiKey;
    if (apiKey === undefined && profile.hasLogin) {
      const ref: ProfileRef = { file: profile.path, name: profile.name };
      const verdict = await verifyLogin(endpoint, ref, workspaceId, log);
      if (verdict) {
        log.warn(`Sign-in with the login of profile "${profile.name}" from ${profile.file} against ${endpoint} failed.`);
        void vscode.window.showErrorMessage(vscode.l10n.t("Could not sign in with profile '{0}' from {1}: {2}", profile.name, profile.file, verdict));
        return;
      }
      if (profile.workspaceId && profile.workspaceId !== settings.workspaceId) {
        await vscode.workspace.getConfiguration(ConfigKeys.section).update(ConfigKeys.workspaceId, profile.workspaceId, vscode.ConfigurationTarget.Global);
      }
      await credentials.storeProfile(endpoint, ref);
      if (endpoint !== settings.endpoint) {
        await vscode.workspace.getConfiguration(ConfigKeys.section).update(ConfigKeys.endpoint, endpoint, vscode.ConfigurationTarget.Global);
      }
      log.info(`Signed in to ${endpoint} with the login of profile "${profile.name}" from ${profile.file}; its token stays in that file.`);
      void vscode.window.showInformationMessage(vscode.l10n.t("Signed in with profile '{0}' at {1}.", profile.name, endpoint));
      return;
    }
    if (apiKey !== undefined) {
      // Checked as a typed key is; the key itself is never part of the message.
      const verdict = validateApiKeyInput(apiKey) ?? (await verifyKey(endpoint, apiKey, workspaceId));
      if (verdict) {
        log.warn(`Sign-in with profile "${profile.name}" from ${profile.file} against ${endpoint} failed: ${verdict}`);
        void vscode.window.showErrorMessage(vscode.l10n.t("Could not sign in with profile '{0}' from {1}: {2}", profile.name, profile.file, verdict));
        return;
      }
    } else {
      apiKey = await askVerifiedKey(endpoint, workspaceId, log);
    }
    if (profile.workspaceId && profile.workspaceId !== settings.workspaceId) {
      await vscode.workspace.getConfiguration(ConfigKeys.section).update(ConfigKeys.workspaceId, profile.workspaceId, vscode.ConfigurationTarget.Global);
    }
    await finishSignIn(credentials, log, settings.endpoint, endpoint, apiKey, ` with profile "${profile.name}" from ${profile.file}`);
    return;
  }
  const endpoint = normalizeEndpoint(await pickEndpoint(settings.endpoint));
  const apiKey = await askVerifiedKey(endpoint, settings.workspaceId, log);
  await finishSignIn(credentials, log, settings.endpoint, endpoint, apiKey, '');
}

/** Stores the key (SecretStorage only), makes the endpoint the current one, and says so. */
async function finishSignIn(credentials: Credentials, log: vscode.LogOutputChannel, current: string, endpoint: string, apiKey: string, how: string): Promise<void> {
  await credentials.store(endpoint, apiKey);
  if (endpoint !== current) {
    await vscode.workspace.getConfiguration(ConfigKeys.section).update(ConfigKeys.endpoint, endpoint, vscode.ConfigurationTarget.Global);
  }
  log.info(`Signed in to ${endpoint}${how}; the key is in secret storage.`);
  void vscode.window.showInformationMessage(vscode.l10n.t('Signed in to LangSmith at {0}.', endpoint));
}

export async function signOut(credentials: Credentials, log: vscode.LogOutputChannel): Promise<void> {
  const { endpoint } = readConnectionSettings();
  const resolved = await credentials.resolve(endpoint);
  await credentials.clear(endpoint);
  log.info(
    resolved.profile
      ? `Signed out of ${endpoint}: the login of profile "${resolved.profile.name}" from ${resolved.profile.file} is no longer used (the file is left as it is).`
      : resolved.source === 'environment'
        ? `Signed out of ${endpoint}: LANGSMITH_API_KEY from the environment is no longer used until the next sign-in.`
        : `Removed the stored API key for ${endpoint}.`,
  );
  void vscode.window.showInformationMessage(vscode.l10n.t('Signed out of {0}.', endpoint));
}
