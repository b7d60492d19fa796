// The profiles LangSmith's own CLI and SDKs keep in `~/.langsmith/config.json` (`LANGSMITH_CONFIG_FILE` names
// another file, `LANGSMITH_PROFILE` picks the profile in use). The file, as the official SDKs read it:
//
//   { "current_profile": "default",
//     "profiles": { "default": { "api_url": "https://api.smith.langchain.com", "api_key": "lsv2_…",
//                               "workspace_id": "…", "oauth": { "access_token": "…", "refresh_token": "…",
//                                                               "expires_at": "2026-…" } } } }
//
// Every field of a profile is optional; without `api_url` the SDKs use LangSmith (US). Values are read trimmed,
// with one pair of surrounding quotes dropped, as the SDKs read them.
//
// Listing a file answers what each profile is (name, endpoint, whether it has a key or a token, workspace) and
// never a secret: the key of one profile is read on its own (`profileApiKey`), when it is used. Errors name the
// file and what is wrong with it, never a value from it.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** Where the SDKs send a profile without `api_url`. */
export const PROFILE_DEFAULT_API_URL = 'https://api.smith.langchain.com';

export interface ProfileSummary {
  name: string;
  /** The profile's `api_url`, without trailing slashes; LangSmith (US) when the profile has none. */
  apiUrl: string;
  /** Whether the profile has an `api_key`. */
  hasApiKey: boolean;
  /** Whether the profile has an OAuth access or refresh token (`langsmith login`). */
  hasOAuthToken: boolean;
  workspaceId?: string;
  /** The profile the SDKs would use: `LANGSMITH_PROFILE`, else `current_profile`, else `default`. */
  current: boolean;
}

export interface ProfilesFile {
  /** The file read (absolute). */
  path: string;
  /** The profiles, the one in use first, then by name. */
  profiles: ProfileSummary[];
}

/** A profiles file that cannot be used: names the file and each problem, never a value from it. */
export class ProfilesFileError extends Error {
  constructor(
    readonly path: string,
    readonly problems: string[],
  ) {
    super(`${path}: ${problems.join('; ')}`);
    this.name = 'ProfilesFileError';
  }
}

type Env = Record<string, string | undefined>;

/** The file the SDKs read: `LANGSMITH_CONFIG_FILE`, else `.langsmith/config.json` in the home folder. */
export function profilesFilePath(env: Env = process.env): string {
  const explicit = env['LANGSMITH_CONFIG_FILE']?.trim();
  if (explicit) return path.resolve(explicit);
  const home = env['HOME']?.trim() || env['USERPROFILE']?.trim() || os.homedir();
  return path.join(home, '.langsmith', 'config.json');
}

/** The path as a person reads it: `~/…` under the home folder. */
export function displayProfilesPath(file: string, env: Env = process.env): string {
  const home = env['HOME']?.trim() || env['USERPROFILE']?.trim() || os.homedir();
  const rel = path.relative(home, file);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? `~/${rel.split(path.sep).join('/')}` : file;
}

/** A value as the SDKs read it: trimmed, one pair of surrounding quotes dropped; undefined when empty. */
function configValue(v: string | undefined): string | undefined {
  const t = v?.trim().replace(/^["']|["']$/g, '').trim();
  return t ? t : undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

interface Parsed {
  file: string;
  profiles: Record<string, Record<string, unknown>>;
  current: string | undefined;
}

/** Line and column of a character offset, for a JSON syntax error (its own message may quote the file). */
function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return `line ${line}, column ${offset - before.lastIndexOf('\n')}`;
}

function parseFile(file: string, env: Env): Parsed | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw new ProfilesFileError(file, [`cannot be read (${code ?? 'unknown error'})`]);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    // V8's message quotes part of the text, which may be a key: only the position is kept.
    const at = /position (\d+)/.exec(e instanceof Error ? e.message : '');
    throw new ProfilesFileError(file, [`is not valid JSON${at ? ` (${lineColumn(text, Number(at[1]))})` : ''}`]);
  }
  if (!isObject(data)) throw new ProfilesFileError(file, ['is not a JSON object']);
  const problems: string[] = [];
  const rawProfiles = data['profiles'];
  if (rawProfiles !== undefined && !isObject(rawProfiles)) problems.push('"profiles" is not an object');
  const currentRaw = data['current_profile'];
  if (currentRaw != null && typeof currentRaw !== 'string') problems.push('"current_profile" is not text');
  const profiles: Record<string, Record<string, unknown>> = {};
  for (const [name, p] of Object.entries(isObject(rawProfiles) ? rawProfiles : {})) {
    if (!isObject(p)) {
      problems.push(`profile "${name}" is not an object`);
      continue;
    }
    for (const field of ['api_url', 'api_key', 'workspace_id'] as const) {
      if (p[field] != null && typeof p[field] !== 'string') problems.push(`profile "${name}": "${field}" is not text`);
    }
    const url = typeof p['api_url'] === 'string' ? configValue(p['api_url']) : undefined;
    if (url && !/^https?:\/\/[^/\s]/i.test(url)) problems.push(`profile "${name}": "api_url" is not an http(s) address`);
    const oauth = p['oauth'];
    if (oauth != null) {
      if (!isObject(oauth)) problems.push(`profile "${name}": "oauth" is not an object`);
      else for (const t of ['access_token', 'refresh_token'] as const) if (oauth[t] != null && typeof oauth[t] !== 'string') problems.push(`profile "${name}": "oauth.${t}" is not text`);
    }
    profiles[name] = p;
  }
  const fromEnv = configValue(env['LANGSMITH_PROFILE']);
  if (fromEnv && !Object.hasOwn(profiles, fromEnv)) {
    const names = Object.keys(profiles);
    problems.push(`LANGSMITH_PROFILE names profile "${fromEnv}", which is not in the file (${names.length ? `it has ${names.map((n) => `"${n}"`).join(', ')}` : 'it has no profiles'})`);
  }
  if (problems.length) throw new ProfilesFileError(file, problems);
  const named = typeof currentRaw === 'string' ? configValue(currentRaw) : undefined;
  const current = fromEnv ?? named ?? (Object.hasOwn(profiles, 'default') ? 'default' : undefined);
  return { file, profiles, current };
}

/**
 * The profiles of the SDKs' config file (`file`, or the one the environment names); undefined when there is no
 * such file. Throws ProfilesFileError when the file cannot be read or is malformed.
 */
export function readProfiles(o: { file?: string; env?: Env } = {}): ProfilesFile | undefined {
  const env = o.env ?? process.env;
  const parsed = parseFile(path.resolve(o.file ?? profilesFilePath(env)), env);
  if (!parsed) return undefined;
  const profiles = Object.entries(parsed.profiles).map(([name, p]): ProfileSummary => {
    const oauth = isObject(p['oauth']) ? p['oauth'] : {};
    const workspaceId = configValue(p['workspace_id'] as string | undefined);
    return {
      name,
      apiUrl: (configValue(p['api_url'] as string | undefined) ?? PROFILE_DEFAULT_API_URL).replace(/\/+$/, ''),
      hasApiKey: !!configValue(p['api_key'] as string | undefined),
      hasOAuthToken: !!(configValue(oauth['access_token'] as string | undefined) || configValue(oauth['refresh_token'] as string | undefined)),
      ...(workspaceId ? { workspaceId } : {}),
      current: name === parsed.current,
    };
  });
  profiles.sort((a, b) => Number(b.current) - Number(a.current) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { path: parsed.file, profiles };
}

/**
 * The API key of one profile, read from the file when it is used (undefined when the profile has none).
 * Throws ProfilesFileError when the file is gone, malformed, or has no such profile.
 */
export function profileApiKey(file: string, name: string, env: Env = process.env): string | undefined {
  const parsed = parseFile(file, { ...env, LANGSMITH_PROFILE: undefined });
  if (!parsed) throw new ProfilesFileError(file, ['no longer exists']);
  const p = Object.hasOwn(parsed.profiles, name) ? parsed.profiles[name] : undefined;
  if (!p) throw new ProfilesFileError(file, [`has no profile "${name}"`]);
  return configValue(p['api_key'] as string | undefined);
}

/** The OAuth login of one profile (`langsmith login`), as read from the file: secrets, for the client's auth only. */
export interface ProfileLogin {
  apiUrl: string;
  accessToken: string | undefined;
  refreshToken: string | undefined;
  /** Milliseconds since the epoch; undefined when the file gives none (or none readable). */
  expiresAt: number | undefined;
}

/**
 * The OAuth login of one profile, read afresh from the file. Throws ProfilesFileError when the file is gone,
 * malformed, or has no such profile.
 */
export function readProfileLogin(file: string, name: string): ProfileLogin {
  const parsed = parseFile(file, { LANGSMITH_PROFILE: undefined });
  if (!parsed) throw new ProfilesFileError(file, ['no longer exists']);
  const p = Object.hasOwn(parsed.profiles, name) ? parsed.profiles[name] : undefined;
  if (!p) throw new ProfilesFileError(file, [`has no profile "${name}"`]);
  const oauth = isObject(p['oauth']) ? p['oauth'] : {};
  const expires = typeof oauth['expires_at'] === 'string' ? Date.parse(oauth['expires_at']) : NaN;
  return {
    apiUrl: (configValue(p['api_url'] as string | undefined) ?? PROFILE_DEFAULT_API_URL).replace(/\/+$/, ''),
    accessToken: configValue(oauth['access_token'] as string | undefined),
    refreshToken: configValue(oauth['refresh_token'] as string | undefined),
    expiresAt: Number.isNaN(expires) ? undefined : expires,
  };
}
