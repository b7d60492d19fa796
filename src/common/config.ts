// Typed access to the extension's settings and the environment conventions of LangSmith's own clients.
import { ConfigKeys } from '../constants';
import * as vscode from 'vscode';

export const DEFAULT_ENDPOINT = 'https://api.smith.langchain.com';

export interface ConnectionSettings {
  endpoint: string;
  workspaceId: string | undefined;
  /** Where the endpoint came from, for the status text. */
  endpointSource: 'settings' | 'environment' | 'default';
}

function env(name: string): string | undefined {
  const value = process.env[`LANGSMITH_${name}`] ?? process.env[`LANGCHAIN_${name}`];
  return value && value.trim() ? value.trim() : undefined;
}

/** The endpoint without trailing slashes, so one endpoint always maps to one stored key. */
export function normalizeEndpoint(endpoint: string): string {
  return endpoint.trim().replace(/\/+$/, '');
}

export function readConnectionSettings(): ConnectionSettings {
  const config = vscode.workspace.getConfiguration(ConfigKeys.section);
  const configured = config.get<string>(ConfigKeys.endpoint, '').trim();
  const fromEnv = env('ENDPOINT');
  const endpoint = normalizeEndpoint(configured || fromEnv || DEFAULT_ENDPOINT);
  const workspaceId = config.get<string>(ConfigKeys.workspaceId, '').trim() || env('WORKSPACE_ID');
  return { endpoint, workspaceId, endpointSource: configured ? 'settings' : fromEnv ? 'environment' : 'default' };
}

/**
 * The environment's API key, for the endpoint it belongs to: LANGSMITH_ENDPOINT, or LangSmith US when that is
 * unset. Any other endpoint never gets it.
 */
export function environmentApiKey(endpoint: string): string | undefined {
  const key = env('API_KEY');
  if (!key) return undefined;
  return normalizeEndpoint(env('ENDPOINT') ?? DEFAULT_ENDPOINT) === normalizeEndpoint(endpoint) ? key : undefined;
}
