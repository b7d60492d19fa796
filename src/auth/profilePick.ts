// Sign In's first question when LangSmith's CLI has left profiles in `~/.langsmith/config.json` (or the file
// `LANGSMITH_CONFIG_FILE` names): use one of them, or choose an endpoint and type a key as usual. The profiles
// are listed without their secrets; a profile's key is read from the file only once it is chosen, and a profile
// with only an OAuth login (`langsmith login`) signs in with that login, its token never leaving the file.
import * as vscode from 'vscode';
import { UserCancelled } from '../common/cancelled';
import { prompter } from '../common/prompter';
import { displayProfilesPath, profileApiKey, ProfilesFileError, readProfiles, type ProfileSummary } from '../client/profiles';

export interface ChosenProfile {
  name: string;
  /** The file as a person reads it (`~/.langsmith/config.json`). */
  file: string;
  endpoint: string;
  workspaceId: string | undefined;
  /** The file (absolute). */
  path: string;
  /** Undefined when the profile has no key: then its OAuth login is used if it has one, else a key is asked for. */
  apiKey: string | undefined;
  /** Whether the profile has an OAuth login (`langsmith login`): used when it has no key. */
  hasLogin: boolean;
}

/**
 * The profile the user chose, or undefined when there is no profiles file (or no profile in it), the file is
 * malformed (said in a warning), or the user chose to enter an endpoint and key. Dismissing cancels the sign-in.
 */
export async function pickProfile(log: vscode.LogOutputChannel): Promise<ChosenProfile | undefined> {
  let found: ReturnType<typeof readProfiles>;
  try {
    found = readProfiles();
  } catch (e) {
    if (!(e instanceof ProfilesFileError)) throw e;
    warnUnusable(e, log);
    return undefined;
  }
  if (!found?.profiles.length) return undefined;
  const file = displayProfilesPath(found.path);
  type Item = vscode.QuickPickItem & { profile?: ProfileSummary };
  const items: Item[] = found.profiles.map((p) => ({
    label: vscode.l10n.t("Use profile '{0}' from {1}", p.name, file),
    description: p.apiUrl,
    detail: [
      p.hasApiKey ? vscode.l10n.t('API key') : p.hasOAuthToken ? vscode.l10n.t('OAuth login (langsmith login): its token stays in the file') : vscode.l10n.t('No key: you will be asked for one'),
      p.workspaceId ? vscode.l10n.t('workspace {0}', p.workspaceId) : undefined,
      p.current ? vscode.l10n.t('the profile in use') : undefined,
    ]
      .filter(Boolean)
      .join(' · '),
    profile: p,
  }));
  items.push({ label: vscode.l10n.t('Choose an endpoint and enter an API key…') });
  const picked = await prompter().pick(items, {
    title: vscode.l10n.t('Sign in to LangSmith'),
    placeholder: vscode.l10n.t('Use a profile of the LangSmith CLI, or enter an endpoint and key'),
  });
  if (!picked) throw new UserCancelled();
  const p = picked.profile;
  if (!p) return undefined;
  let apiKey: string | undefined;
  try {
    apiKey = p.hasApiKey ? profileApiKey(found.path, p.name) : undefined;
  } catch (e) {
    if (!(e instanceof ProfilesFileError)) throw e;
    warnUnusable(e, log);
    throw new UserCancelled();
  }
  return { name: p.name, file, path: found.path, endpoint: p.apiUrl, workspaceId: p.workspaceId, apiKey, hasLogin: p.hasOAuthToken };
}

function warnUnusable(e: ProfilesFileError, log: vscode.LogOutputChannel): void {
  log.warn(`LangSmith CLI profiles not used: ${e.message}`);
  void vscode.window.showWarningMessage(vscode.l10n.t('The LangSmith profiles in {0} cannot be used: {1}', displayProfilesPath(e.path), e.problems.join('; ')));
}
