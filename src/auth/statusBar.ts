import * as vscode from 'vscode';
import { Commands } from '../constants';
import { displayProfilesPath } from '../client/profiles';
import type { ClientService, Health } from './clientService';
import { isSignedIn } from './connection';

/** Shows the endpoint, workspace and connection state; a click signs in or shows the log. */
export class ConnectionStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('langsmith.connection', vscode.StatusBarAlignment.Left, 10);
  private readonly disposables: vscode.Disposable[] = [this.item];

  constructor(private readonly clients: ClientService) {
    this.item.name = vscode.l10n.t('LangSmith Connection');
    this.disposables.push(clients.onDidChangeHealth(() => void this.update()), clients.connection.onDidChange(() => void this.update()));
    // Shown once the palette's context keys hold the connection, so that whenever the item is visible the palette
    // offers what it says (Sign Out when signed in, Sign In when not).
    void clients.connection.settled.then(() => this.update()).then(() => this.item.show());
    // The connection is checked once the window has settled, not during activation (no network then).
    const timer = setTimeout(() => void this.checkIfSignedIn(), 1500);
    this.disposables.push({ dispose: () => clearTimeout(timer) });
  }

  private async checkIfSignedIn(): Promise<void> {
    const c = await this.clients.connection.current();
    if (isSignedIn(c) && this.clients.health === 'unknown') await this.clients.checkHealth();
  }

  async update(): Promise<void> {
    const c = await this.clients.connection.current();
    const host = safeHost(c.endpoint);
    const health: Health = isSignedIn(c) ? this.clients.health : 'signedOut';
    const profile = c.apiKey ? undefined : c.profile;
    const icon = { unknown: '$(cloud)', connected: '$(cloud)', authError: '$(warning)', offline: '$(debug-disconnect)', signedOut: '$(sign-in)' }[health];
    const state = {
      unknown: vscode.l10n.t('signed in'),
      connected: vscode.l10n.t('connected'),
      authError: profile ? vscode.l10n.t('the login was refused') : vscode.l10n.t('the API key was rejected'),
      offline: vscode.l10n.t('cannot reach the server'),
      signedOut: vscode.l10n.t('not signed in'),
    }[health];
    this.item.text = `${icon} LangSmith${health === 'signedOut' ? '' : `: ${host}`}`;
    const tooltip = new vscode.MarkdownString(undefined, true);
    tooltip.appendMarkdown(`${vscode.l10n.t('**LangSmith** — {0}', state)}\n\n`);
    tooltip.appendMarkdown(`${vscode.l10n.t('Endpoint: {0}', `\`${c.endpoint}\``)}${c.endpointSource === 'environment' ? ` ${vscode.l10n.t('(from LANGSMITH_ENDPOINT)')}` : ''}\n\n`);
    tooltip.appendMarkdown(`${vscode.l10n.t('Workspace: {0}', c.workspaceId ? `\`${c.workspaceId}\`` : (profile ? vscode.l10n.t('the login’s default') : vscode.l10n.t('the key’s default')))}\n\n`);
    if (c.apiKey) tooltip.appendMarkdown(vscode.l10n.t('API key: from {0}', c.keySource === 'environment' ? vscode.l10n.t('LANGSMITH_API_KEY in the environment') : vscode.l10n.t('secret storage')));
    else if (profile) tooltip.appendMarkdown(vscode.l10n.t("Signed in with the login of profile '{0}' in {1}", plainMarkdown(profile.name), plainMarkdown(displayProfilesPath(profile.file))));
    this.item.tooltip = tooltip;
    this.item.command = health === 'signedOut' || health === 'authError' ? Commands.signIn : Commands.showLog;
    this.item.backgroundColor = health === 'authError' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.accessibilityInformation = {
      label: profile ? vscode.l10n.t("LangSmith: {0}, {1}, profile '{2}'", state, host, profile.name) : vscode.l10n.t('LangSmith: {0}, {1}', state, host),
    };
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}

function safeHost(endpoint: string): string {
  try {
    return new URL(endpoint).host;
  } catch {
    return endpoint;
  }
}

/** A name from the user's file, shown as text in the markdown tooltip. */
function plainMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, '\\$&');
}
