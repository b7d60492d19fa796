// Hands out a LangSmithClient for the current connection and keeps the connection's health for the status bar.
// A new client is built only when the endpoint, key, workspace or network settings (proxy, CA file) change.
import * as vscode from 'vscode';
import type { LangSmithClient } from '../client';
import { LangSmithAuthError, LangSmithError } from '../client/errors';
import { Commands } from '../constants';
import { displayProfilesPath } from '../client/profiles';
import type { Connection, ConnectionState } from './connection';
import type { ProfileRef } from './credentials';
import { ConnectionSettingError, createNetworkFetch, networkKey, readNetworkSettings, type NetworkFetch, type NetworkSettings } from './network';
import { lazy } from '../common/lazy';

export type Health = 'unknown' | 'connected' | 'authError' | 'offline' | 'signedOut';

export class NotSignedInError extends Error {
  constructor() {
    super(vscode.l10n.t('Sign in to LangSmith first.'));
    this.name = 'NotSignedInError';
  }
}

export class ClientService implements vscode.Disposable {
  private cached: { key: string; client: LangSmithClient; connection: Connection; network: NetworkFetch } | undefined;
  private otherNetwork: { key: string; network: NetworkFetch } | undefined;
  /** The settings error last shown in a notification, so a broken setting warns once, not on every call. */
  private settingErrorShown: string | undefined;
  private healthValue: Health = 'unknown';
  /** One re-prompt per connection after a rejected key, not one per failed call. */
  private authPrompted = false;
  private readonly healthChanged = new vscode.EventEmitter<Health>();
  readonly onDidChangeHealth = this.healthChanged.event;
  private readonly disposables: vscode.Disposable[] = [this.healthChanged];

  constructor(
    readonly connection: ConnectionState,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.disposables.push(
      connection.onDidChange(() => {
        this.dropCached();
        this.authPrompted = false;
        this.setHealth('unknown');
      }),
    );
  }

  get health(): Health {
    return this.healthValue;
  }

  /** The client for the current connection; throws NotSignedInError when there is no API key nor profile login. */
  async client(): Promise<LangSmithClient> {
    const connection = await this.connection.current();
    const credential = credentialOf(connection);
    if (!credential) {
      this.setHealth('signedOut');
      throw new NotSignedInError();
    }
    const settings = readNetworkSettings();
    const key = JSON.stringify([connection.endpoint, credential, connection.workspaceId ?? '', networkKey(settings)]);
    if (this.cached?.key !== key) {
      let network: NetworkFetch;
      let api: ClientModule;
      try {
        [network, api] = await Promise.all([createNetworkFetch(settings), loadClientModule()]);
      } catch (err) {
        if (err instanceof ConnectionSettingError) this.reportSettingError(err, key);
        throw err;
      }
      // Another call may have built the client for this key while these loaded: keep that one.
      if (this.cached?.key === key) {
        network.close();
        return this.cached.client;
      }
      this.dropCached();
      this.settingErrorShown = undefined;
      this.cached = { key, connection, network, client: clientOver(api, connection.endpoint, credential, connection.workspaceId, network) };
      this.log.info(`Using ${connection.endpoint}${connection.workspaceId ? ` (workspace ${connection.workspaceId})` : ''} with ${describeSource(connection)}; network: ${network.description}.`);
    }
    return this.cached.client;
  }

  /** The client module (runnables, templates, the chat model), loaded on first use. */
  api(): Promise<ClientModule> {
    return loadClientModule();
  }

  /**
   * The fetch other HTTP of the extension goes through (the playground's model endpoint): the same route as
   * the LangSmith client (proxy, CA file), made once per network settings.
   */
  async networkFetch(): Promise<typeof fetch> {
    const settings = readNetworkSettings();
    const key = networkKey(settings);
    if (this.otherNetwork?.key !== key) {
      const network = await createNetworkFetch(settings);
      this.otherNetwork?.network.close();
      this.otherNetwork = { key, network };
    }
    return this.otherNetwork.network.fetch ?? globalThis.fetch;
  }

  private dropCached(): void {
    this.cached?.network.close();
    this.cached = undefined;
  }

  /** A setting makes every call fail: say so once (log and notification), naming the setting; the trees show it too. */
  private reportSettingError(err: ConnectionSettingError, key: string): void {
    this.setHealth('offline');
    if (this.settingErrorShown === key) return;
    this.settingErrorShown = key;
    this.log.error(err.message);
    const openSetting = vscode.l10n.t('Open Setting');
    const showLog = vscode.l10n.t('Show Log');
    void vscode.window.showErrorMessage(vscode.l10n.t('LangSmith: {0}', err.message), openSetting, showLog).then((choice) => {
      if (choice === openSetting) void vscode.commands.executeCommand('workbench.action.openSettings', err.setting);
      else if (choice === showLog) this.log.show();
    });
  }

  /** Runs one API call and records what it says about the connection. */
  async call<T>(work: (client: LangSmithClient) => Promise<T>): Promise<T> {
    const client = await this.client();
    try {
      const result = await work(client);
      this.setHealth('connected');
      return result;
    } catch (err) {
      this.observe(err);
      throw err;
    }
  }

  /** One light call (/settings) to learn whether the connection works; never throws. */
  async checkHealth(): Promise<Health> {
    try {
      await this.call((c) => c.settings());
    } catch {
      /* observe() recorded what the failure says */
    }
    return this.healthValue;
  }

  /** A call went through: the connection works. */
  reportSuccess(): void {
    this.setHealth('connected');
  }

  observe(err: unknown): void {
    if (err instanceof LangSmithAuthError) {
      this.setHealth('authError');
      this.promptSignInOnce(err);
    } else if (err instanceof LangSmithError && err.status !== undefined) this.setHealth('connected');
    else if (err instanceof NotSignedInError) this.setHealth('signedOut');
    else if (isNetworkError(err)) this.setHealth('offline');
  }

  private promptSignInOnce(err: LangSmithAuthError): void {
    if (this.authPrompted) return;
    this.authPrompted = true;
    const profile = this.cached?.connection.profile;
    this.log.warn(`LangSmith refused ${profile ? `the login of profile "${profile.name}" from ${displayProfilesPath(profile.file)}` : 'the API key'}: ${err.message}`);
    const message =
      err.status === 403
        ? vscode.l10n.t('LangSmith: The key is not allowed in this workspace. Sign in again to keep browsing.')
        : profile
          ? vscode.l10n.t("LangSmith: The login of profile '{0}' was refused. Run `langsmith login` or sign in again to keep browsing.", profile.name)
          : vscode.l10n.t('LangSmith: The API key was rejected. Sign in again to keep browsing.');
    const signIn = vscode.l10n.t('Sign In');
    void vscode.window.showWarningMessage(message, signIn).then((choice) => {
      if (choice === signIn) void vscode.commands.executeCommand(Commands.signIn);
    });
  }

  private setHealth(health: Health): void {
    if (health === this.healthValue) return;
    this.healthValue = health;
    this.healthChanged.fire(health);
  }

  dispose(): void {
    this.dropCached();
    this.otherNetwork?.network.close();
    this.otherNetwork = undefined;
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}

/** What a client signs in with: an API key, or which profile's OAuth login (its token read from the file). */
export type Credential = { apiKey: string } | { profile: ProfileRef };

function credentialOf(c: Connection): Credential | undefined {
  if (c.apiKey) return { apiKey: c.apiKey };
  if (c.profile) return { profile: { file: c.profile.file, name: c.profile.name } };
  return undefined;
}

/**
 * A client for one endpoint and credential that connects as the network settings say (proxy, CA file); by
 * default the current settings (throws ConnectionSettingError when one is unusable).
 */
export async function createClient(endpoint: string, credential: Credential, workspaceId: string | undefined, settings: NetworkSettings = readNetworkSettings()): Promise<LangSmithClient> {
  const [network, api] = await Promise.all([createNetworkFetch(settings), loadClientModule()]);
  return clientOver(api, endpoint, credential, workspaceId, network);
}

type ClientModule = typeof import('../client');

/**
 * The API client (with the zod schemas of every resource) is loaded when the first client is made, not at
 * activation: activation only registers, and most sessions open one or two views.
 */
function loadClientModule(): Promise<ClientModule> {
  return lazy.client();
}

function clientOver({ LangSmithClient, ProfileLoginAuth }: ClientModule, endpoint: string, credential: Credential, workspaceId: string | undefined, net: NetworkFetch): LangSmithClient {
  // A profile's login: one auth per client, which reads the token from the file and renews it there.
  const auth = 'apiKey' in credential ? { apiKey: credential.apiKey } : { auth: new ProfileLoginAuth({ file: credential.profile.file, profile: credential.profile.name }) };
  // Without proxy or CA settings, the extension host's own fetch: recent VS Code versions route it through the
  // system proxy, which the client's own transport would not.
  return new LangSmithClient({ apiUrl: endpoint, ...auth, workspaceId, timeoutMs: 30_000, maxRetries: 2, fetch: net.fetch ?? globalThis.fetch });
}

function describeSource(connection: Connection): string {
  if (!connection.apiKey && connection.profile) return `the login of profile "${connection.profile.name}" from ${displayProfilesPath(connection.profile.file)} (its token is read from that file)`;
  return `the key from ${connection.keySource === 'environment' ? 'the environment' : 'secret storage'}`;
}

function isNetworkError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const text = `${err.name} ${err.message} ${String((err as { cause?: unknown }).cause ?? '')}`;
  return /fetch failed|ECONNREFUSED|ENOTFOUND|ECONNRESET|EAI_AGAIN|network|timed out|Timeout/i.test(text);
}
