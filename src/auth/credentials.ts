// The API key lives only in SecretStorage, one entry per endpoint, so switching endpoints never sends one
// endpoint's key to another. The environment's LANGSMITH_API_KEY is used when nothing is stored, and only for
// the endpoint the environment names.
import * as vscode from 'vscode';
import { environmentApiKey, normalizeEndpoint } from '../common/config';

const SECRET_PREFIX = 'langsmith.apiKey:';

export type KeySource = 'secretStorage' | 'environment' | 'none';

export interface ResolvedKey {
  apiKey: string | undefined;
  source: KeySource;
}

export class Credentials implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly secrets: vscode.SecretStorage) {
    this.subscription = secrets.onDidChange((e) => {
      if (e.key.startsWith(SECRET_PREFIX)) this.changed.fire();
    });
  }

  async resolve(endpoint: string): Promise<ResolvedKey> {
    const stored = await this.secrets.get(secretKey(endpoint));
    if (stored) return { apiKey: stored, source: 'secretStorage' };
    const fromEnv = environmentApiKey(endpoint);
    // Signing out covers the environment's key too, until the next sign-in.
    if (fromEnv && !(await this.secrets.get(envSignedOutKey(endpoint)))) return { apiKey: fromEnv, source: 'environment' };
    return { apiKey: undefined, source: 'none' };
  }

  async store(endpoint: string, apiKey: string): Promise<void> {
    await this.secrets.store(secretKey(endpoint), apiKey);
    await this.secrets.delete(envSignedOutKey(endpoint));
  }

  /** Forgets the stored key and stops using the environment's key for this endpoint (until the next sign-in). */
  async clear(endpoint: string): Promise<void> {
    await this.secrets.delete(secretKey(endpoint));
    if (environmentApiKey(endpoint)) await this.secrets.store(envSignedOutKey(endpoint), '1');
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}

function secretKey(endpoint: string): string {
  return SECRET_PREFIX + normalizeEndpoint(endpoint);
}

/** Set when the user signed out while LANGSMITH_API_KEY names this endpoint (no key in it, only a flag). */
function envSignedOutKey(endpoint: string): string {
  return `${secretKey(endpoint)}#environmentSignedOut`;
}
