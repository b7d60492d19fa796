// Where the playground's chat model is: an OpenAI-compatible chat-completions endpoint from the setting, or —
// connected to a local LangSmith server (loopback) with no setting — that server's own `local-echo` model. Its
// key lives in SecretStorage, one entry per endpoint origin, like the LangSmith key; an endpoint on the
// LangSmith server's own origin uses the LangSmith key (the same server), and no other endpoint ever does.
import * as vscode from 'vscode';
import { ConfigKeys } from '../constants';
import { normalizeEndpoint } from '../common/config';
import type { Connection } from './connection';

const SECRET_PREFIX = 'langsmith.modelApiKey:';
export const LOCAL_MODEL = 'local-echo';
export const DEFAULT_MODEL = 'gpt-4o-mini';
export const DEFAULT_PROJECT = 'playground';

export interface ModelEndpoint {
  url: string | null;
  source: 'setting' | 'localServer' | 'none';
  apiKey: string | undefined;
  /** The model a run uses when neither the panel nor the prompt names one. */
  defaultModel: string;
}

function isLoopback(url: string): boolean {
  try {
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
  } catch {
    return false;
  }
}

export function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** The stored key's name for an endpoint: by origin, so `…/v1` and `…/v1/` share it. */
function secretKey(url: string): string {
  return SECRET_PREFIX + (originOf(url) ?? normalizeEndpoint(url));
}

/** The chat-completions base URL of the LangSmith server itself: `http://127.0.0.1:1984/api/v1` → `…:1984/v1`. */
export function localModelUrl(langsmithEndpoint: string): string {
  return `${normalizeEndpoint(langsmithEndpoint).replace(/\/api\/v1$/, '').replace(/\/api$/, '')}/v1`;
}

export function playgroundProject(): string {
  const value = vscode.workspace.getConfiguration(ConfigKeys.section).get<string>(ConfigKeys.playgroundProject, DEFAULT_PROJECT).trim();
  return value || DEFAULT_PROJECT;
}

export async function resolveModelEndpoint(secrets: vscode.SecretStorage, connection: Connection): Promise<ModelEndpoint> {
  const config = vscode.workspace.getConfiguration(ConfigKeys.section);
  const setting = config.get<string>(ConfigKeys.playgroundEndpoint, '').trim();
  const model = config.get<string>(ConfigKeys.playgroundModel, '').trim();
  let url: string | null = null;
  let source: ModelEndpoint['source'] = 'none';
  if (setting) {
    url = normalizeEndpoint(setting);
    source = 'setting';
  } else if (isLoopback(connection.endpoint)) {
    url = localModelUrl(connection.endpoint);
    source = 'localServer';
  }
  let apiKey: string | undefined;
  if (url) {
    apiKey = (await secrets.get(secretKey(url))) || undefined;
    if (!apiKey && originOf(url) === originOf(connection.endpoint)) apiKey = connection.apiKey;
  }
  return { url, source, apiKey, defaultModel: model || (source === 'localServer' ? LOCAL_MODEL : DEFAULT_MODEL) };
}

export async function storeModelKey(secrets: vscode.SecretStorage, url: string, apiKey: string | undefined): Promise<void> {
  if (apiKey) await secrets.store(secretKey(url), apiKey);
  else await secrets.delete(secretKey(url));
}

export async function hasStoredModelKey(secrets: vscode.SecretStorage, url: string): Promise<boolean> {
  return !!(await secrets.get(secretKey(url)));
}

/** The endpoint setting's problem, if it has one (not a URL, not http/https). */
export function endpointProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return vscode.l10n.t('“{0}” is not a URL. Enter the API root of an OpenAI-compatible endpoint, such as {1}.', url, 'https://api.openai.com/v1');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return vscode.l10n.t('“{0}” must start with http:// or https://.', url);
  if (parsed.username || parsed.password) return vscode.l10n.t('Put the key in the key box, not in the URL.');
  return undefined;
}
