// The connection of a command: endpoint and workspace from flags or the environment, the key from the
// environment or standard input only, else a profile of the LangSmith CLI (`~/.langsmith/config.json`), as the
// official SDKs read it; and the sentences for what goes wrong on the way to LangSmith.
import { LangSmithAuthError, LangSmithClient, LangSmithError, LangSmithTimeoutError, LangSmithValidationError, ProfileLoginAuth } from '../client';
import { displayProfilesPath, profileApiKey, profilesFilePath, ProfilesFileError, readProfiles } from '../client/profiles';
import { UsageError, type OptionSpec, type Parsed } from './args';
import type { Io, Output, ProfileSource } from './io';

export const DEFAULT_ENDPOINT = 'https://api.smith.langchain.com';

export const CONNECTION_OPTIONS: Record<string, OptionSpec> = {
  endpoint: { kind: 'value', arg: 'URL', help: `LangSmith API URL. Default: LANGSMITH_ENDPOINT, LANGCHAIN_ENDPOINT, the profile's api_url, else ${DEFAULT_ENDPOINT}.` },
  'workspace-id': { kind: 'value', arg: 'ID', help: "Workspace id, sent as x-tenant-id. Default: LANGSMITH_WORKSPACE_ID, else the profile's workspace_id." },
  'api-key-stdin': { kind: 'flag', help: 'Read the API key from standard input instead of LANGSMITH_API_KEY / LANGCHAIN_API_KEY.' },
  'max-retries': { kind: 'value', arg: 'N', help: 'Further attempts after a failed request (429, 5xx, network). Default 4.' },
};

export const CONNECTION_HELP =
  'Connection: LANGSMITH_API_KEY (or LANGCHAIN_API_KEY), LANGSMITH_ENDPOINT (or LANGCHAIN_ENDPOINT) and LANGSMITH_WORKSPACE_ID, or the flags above. ' +
  'Without a key from either, the profile of the LangSmith CLI is used, as the LangSmith SDKs use it: LANGSMITH_PROFILE, else the current_profile of ~/.langsmith/config.json ' +
  '(LANGSMITH_CONFIG_FILE names another file); its api_url and workspace_id apply unless given above, and its api_key, else its login (`langsmith login`, renewed in the file). ' +
  'There is no flag for the key itself: a key on the command line is visible to other users in the process list and stays in shell history. ' +
  'In CI, put it in a secret and the environment; from a password manager, pipe it: `pass langsmith | … --api-key-stdin`. The key is never printed.';

export interface Connection {
  client: LangSmithClient;
  endpoint: string;
  /** The secrets this connection holds as text (the key), for redaction; a login's tokens stay in its auth. */
  secrets: string[];
  /** The profile the credentials come from, when not the environment or standard input. */
  profile?: ProfileSource;
}

/** The credentials of the profile in use, or why there are none (the end of the "No API key" sentence). */
function fromProfile(env: NodeJS.ProcessEnv): { file: string; name: string; apiUrl: string; workspaceId?: string; apiKey?: string } | { missing: string; apiUrl?: string } {
  const file = profilesFilePath(env);
  const shown = displayProfilesPath(file, env);
  let profiles;
  try {
    profiles = readProfiles({ file, env });
  } catch (e) {
    if (e instanceof ProfilesFileError) throw new UsageError(`${e.message}. Fix the LangSmith CLI's profiles file, or set LANGSMITH_API_KEY.`);
    throw e;
  }
  if (!profiles) return { missing: `there is no ${shown}` };
  const current = profiles.profiles.find((p) => p.current);
  if (!current) return { missing: `${shown} names no profile in use: set LANGSMITH_PROFILE, or current_profile in the file` };
  if (!current.hasApiKey && !current.hasOAuthToken) return { missing: `profile "${current.name}" in ${shown} has neither an api_key nor a login: run \`langsmith login\``, apiUrl: current.apiUrl };
  const apiKey = current.hasApiKey ? profileApiKey(profiles.path, current.name, env) : undefined;
  return { file: profiles.path, name: current.name, apiUrl: current.apiUrl, ...(current.workspaceId ? { workspaceId: current.workspaceId } : {}), ...(apiKey ? { apiKey } : {}) };
}

export async function connect(args: Parsed, io: Io, output: Output): Promise<Connection> {
  const env = io.env;
  let apiKey: string | undefined;
  if (args.flags.has('api-key-stdin')) {
    apiKey = (await io.readStdin()).trim();
    if (!apiKey) throw new UsageError('--api-key-stdin: standard input held no key.');
  } else apiKey = env['LANGSMITH_API_KEY'] || env['LANGCHAIN_API_KEY'] || undefined;
  output.hide(apiKey);
  // A key given here is used as it is: the profiles file is not even read (nor its problems reported).
  const profile = apiKey ? undefined : fromProfile(env);
  const used = profile && !('missing' in profile) ? profile : undefined;
  if (used?.apiKey) output.hide(used.apiKey);
  const endpoint = (args.values.get('endpoint') || env['LANGSMITH_ENDPOINT'] || env['LANGCHAIN_ENDPOINT'] || profile?.apiUrl || DEFAULT_ENDPOINT).trim();
  if (!apiKey && !used) {
    const why = profile && 'missing' in profile ? profile.missing : '';
    throw new UsageError(`No API key for ${endpoint}: set LANGSMITH_API_KEY (or LANGCHAIN_API_KEY), or pipe the key into --api-key-stdin, or use a profile of the LangSmith CLI (${why}).`);
  }
  try {
    const u = new URL(endpoint);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
  } catch {
    throw new UsageError(`“${endpoint}” is not an http(s) URL: give the LangSmith API URL, e.g. ${DEFAULT_ENDPOINT}.`);
  }
  const workspaceId = args.values.get('workspace-id') || env['LANGSMITH_WORKSPACE_ID'] || env['LANGCHAIN_WORKSPACE_ID'] || used?.workspaceId || undefined;
  const retries = args.values.get('max-retries');
  let maxRetries: number | undefined;
  if (retries !== undefined) {
    if (!/^\d{1,2}$/.test(retries)) throw new UsageError(`--max-retries takes a whole number from 0 to 99, not “${retries}”.`);
    maxRetries = Number(retries);
  }
  const key = apiKey ?? used?.apiKey;
  const credentials = key ? { apiKey: key } : { auth: new ProfileLoginAuth({ file: used!.file, profile: used!.name }) };
  const client = new LangSmithClient({ apiUrl: endpoint, ...credentials, workspaceId, ...(maxRetries !== undefined ? { maxRetries } : {}) });
  output.endpoint = client.apiUrl;
  const source: ProfileSource | undefined = used && { file: used.file, name: used.name, login: !key, description: `profile "${used.name}" in ${displayProfilesPath(used.file, env)}` };
  output.profile = source;
  return { client, endpoint: client.apiUrl, secrets: key ? [key] : [], ...(source ? { profile: source } : {}) };
}

/**
 * The sentence for an error on the way to LangSmith: unreachable, refused key or login, or the server's own message.
 * `profile`: the profile the credentials come from.
 */
export function describeError(e: unknown, endpoint: string | undefined, profile?: ProfileSource): string {
  if (e instanceof LangSmithAuthError && profile) {
    // Raised by the login itself (no token, a refused renewal): its own sentence names the profile already.
    if (e.action === undefined) return e.message;
    const what = profile.login ? `refused the login of ${profile.description}` : `refused the api_key of ${profile.description}`;
    const fix = profile.login ? 'Run `langsmith login` again' : "Check the profile's api_key and workspace_id";
    return `LangSmith at ${endpoint} ${what} (${e.status}${e.detail ? `: ${e.detail}` : ` ${e.statusText ?? ''}`}). ${fix}, or set LANGSMITH_API_KEY.`;
  }
  if (e instanceof LangSmithAuthError) {
    const what = e.status === 403 ? 'refused access with this API key' : 'refused the API key';
    return `LangSmith at ${endpoint} ${what} (${e.status}${e.detail ? `: ${e.detail}` : ` ${e.statusText ?? ''}`}). Check LANGSMITH_API_KEY and, for a workspace, LANGSMITH_WORKSPACE_ID.`;
  }
  if (e instanceof LangSmithTimeoutError) return `LangSmith at ${endpoint} did not answer in time: ${e.message}`;
  if (e instanceof LangSmithValidationError) return e.message;
  if (e instanceof LangSmithError && e.status === undefined && e.cause !== undefined) {
    return `Cannot reach LangSmith at ${endpoint}: ${e.message.replace(/^Failed to [^:]+: /, '')}. Check the endpoint (--endpoint or LANGSMITH_ENDPOINT) and the network.`;
  }
  if (e instanceof Error) return e.message;
  return String(e);
}
