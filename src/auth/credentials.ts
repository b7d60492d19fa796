// The API key lives only in SecretStorage, one entry per endpoint, so switching endpoints never sends one
// endpoint's key to another. The environment's LANGSMITH_API_KEY is used when nothing is stored, and only for
// the endpoint the environment names.
//
// Signed in with the OAuth login of a LangSmith CLI profile (`langsmith login`), what is kept for the endpoint is
// only which profile: the file and the profile's name, no token. The client reads the token from that file on
// each use and writes a renewed one back there, so the extension and the CLI share one login.
import * as vscode from 'vscode';
import { environmentApiKey, normalizeEndpoint } from '../common/config';

const SECRET_PREFIX = 'langsmith.apiKey:';
const PROFILE_PREFIX = 'langsmith.profileLogin:';

/** Where the API key came from: 'none' also when signed in with a profile's login (see `profile`). */
export type KeySource = 'secretStorage' | 'environment' | 'none';

/** Which profile's login to use: no secret. */
export interface ProfileRef {
  /** The profiles file (absolute). */
  file: string;
  name: string;
}

export interface ResolvedKey {
  apiKey: string | undefined;
  source: KeySource;
  /** Set instead of a key when signed in with a profile's OAuth login. */
  profile?: ProfileRef;
}

export class Credentials implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly secrets: vscode.SecretStorage) {
    this.subscription = secrets.onDidChange((e) => {
      if (e.key.startsWith(SECRET_PREFIX) || e.key.startsWith(PROFILE_PREFIX)) this.changed.fire();
    });
  }

  async resolve(endpoint: string): Promise<ResolvedKey> {
    const stored = await this.secrets.get(secretKey(endpoint));
    if (stored) return { apiKey: stored, source: 'secretStorage' };
    const profile = parseProfileRef(await this.secrets.get(profileKey(endpoint)));
    if (profile) return { apiKey: undefined, source: 'none', profile };
    const fromEnv = environmentApiKey(endpoint);
    // Signing out covers the environment's key too, until the next sign-in.
    if (fromEnv && !(await this.secrets.get(envSignedOutKey(endpoint)))) return { apiKey: fromEnv, source: 'environment' };
    return { apiKey: undefined, source: 'none' };
  }

  async store(endpoint: string, apiKey: string): Promise<void> {
    await this.secrets.delete(profileKey(endpoint));
    await this.secrets.store(secretKey(endpoint), apiKey);
    await this.secrets.delete(envSignedOutKey(endpoint));
  }

  /** Signs in to the endpoint with a profile's login: keeps which profile (no token), in place of a key. */
  async storeProfile(endpoint: string, profile: ProfileRef): Promise<void> {
    await this.secrets.delete(secretKey(endpoint));
    await this.secrets.store(profileKey(endpoint), JSON.stringify({ file: profile.file, name: profile.name }));
    await this.secrets.delete(envSignedOutKey(endpoint));
  }

  /**
   * Forgets the stored key or profile and stops using the environment's key for this endpoint (until the next
   * sign-in). The profiles file is left as it is.
   */
  async clear(endpoint: string): Promise<void> {
    await this.secrets.delete(secretKey(endpoint));
    await this.secrets.delete(profileKey(endpoint));
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

function profileKey(endpoint: string): string {
  return PROFILE_PREFIX + normalizeEndpoint(endpoint);
}

function parseProfileRef(text: string | undefined): ProfileRef | undefined {
  if (!text) return undefined;
  try {
    const v = JSON.parse(text) as Partial<ProfileRef>;
    return typeof v.file === 'string' && v.file && typeof v.name === 'string' && v.name ? { file: v.file, name: v.name } : undefined;
  } catch {
    return undefined;
  }
}
