// The connection of a command: endpoint and workspace from flags or the environment, the key from the
// environment or standard input only, and the sentences for what goes wrong on the way to LangSmith.
import { LangSmithAuthError, LangSmithClient, LangSmithError, LangSmithTimeoutError, LangSmithValidationError } from '../client';
import { UsageError, type OptionSpec, type Parsed } from './args';
import type { Io, Output } from './io';

export const DEFAULT_ENDPOINT = 'https://api.smith.langchain.com';

export const CONNECTION_OPTIONS: Record<string, OptionSpec> = {
  endpoint: { kind: 'value', arg: 'URL', help: `LangSmith API URL. Default: LANGSMITH_ENDPOINT, LANGCHAIN_ENDPOINT, else ${DEFAULT_ENDPOINT}.` },
  'workspace-id': { kind: 'value', arg: 'ID', help: 'Workspace id, sent as x-tenant-id. Default: LANGSMITH_WORKSPACE_ID.' },
  'api-key-stdin': { kind: 'flag', help: 'Read the API key from standard input instead of LANGSMITH_API_KEY / LANGCHAIN_API_KEY.' },
  'max-retries': { kind: 'value', arg: 'N', help: 'Further attempts after a failed request (429, 5xx, network). Default 4.' },
};

export const CONNECTION_HELP =
  'Connection: LANGSMITH_API_KEY (or LANGCHAIN_API_KEY), LANGSMITH_ENDPOINT (or LANGCHAIN_ENDPOINT) and LANGSMITH_WORKSPACE_ID, or the flags above. ' +
  'There is no flag for the key itself: a key on the command line is visible to other users in the process list and stays in shell history. ' +
  'In CI, put it in a secret and the environment; from a password manager, pipe it: `pass langsmith | … --api-key-stdin`. The key is never printed.';

export interface Connection {
  client: LangSmithClient;
  endpoint: string;
}

export async function connect(args: Parsed, io: Io, output: Output): Promise<Connection> {
  const env = io.env;
  let apiKey: string | undefined;
  if (args.flags.has('api-key-stdin')) {
    apiKey = (await io.readStdin()).trim();
    if (!apiKey) throw new UsageError('--api-key-stdin: standard input held no key.');
  } else apiKey = env['LANGSMITH_API_KEY'] || env['LANGCHAIN_API_KEY'] || undefined;
  output.hide(apiKey);
  const endpoint = (args.values.get('endpoint') || env['LANGSMITH_ENDPOINT'] || env['LANGCHAIN_ENDPOINT'] || DEFAULT_ENDPOINT).trim();
  if (!apiKey) {
    throw new UsageError(`No API key for ${endpoint}: set LANGSMITH_API_KEY (or LANGCHAIN_API_KEY), or pipe the key into --api-key-stdin.`);
  }
  try {
    const u = new URL(endpoint);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
  } catch {
    throw new UsageError(`“${endpoint}” is not an http(s) URL: give the LangSmith API URL, e.g. ${DEFAULT_ENDPOINT}.`);
  }
  const workspaceId = args.values.get('workspace-id') || env['LANGSMITH_WORKSPACE_ID'] || env['LANGCHAIN_WORKSPACE_ID'] || undefined;
  const retries = args.values.get('max-retries');
  let maxRetries: number | undefined;
  if (retries !== undefined) {
    if (!/^\d{1,2}$/.test(retries)) throw new UsageError(`--max-retries takes a whole number from 0 to 99, not “${retries}”.`);
    maxRetries = Number(retries);
  }
  const client = new LangSmithClient({ apiUrl: endpoint, apiKey, workspaceId, ...(maxRetries !== undefined ? { maxRetries } : {}) });
  output.endpoint = client.apiUrl;
  return { client, endpoint: client.apiUrl };
}

/** The sentence for an error on the way to LangSmith: unreachable, refused key, or the server's own message. */
export function describeError(e: unknown, endpoint: string | undefined): string {
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
