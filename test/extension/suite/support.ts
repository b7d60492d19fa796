// What the extension-host suites share: the local server they run against, the extension's test API, and a
// way to run a command with scripted answers while recording the notifications it shows.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { WorkbenchApi } from '../../../src/extension';
import type { WebviewHost } from '../../../src/webviews/webviewHost';
import { getJson, okJson, rawRequest, type RawResponse } from '../../harness/http';
import type { ScriptedPrompter } from './scriptedPrompter';

/** The local server test/extension/run.mjs started, and the key the environment signs in with. */
export const endpoint = process.env.LANGSMITH_ENDPOINT ?? '';
export const apiKey = process.env.LANGSMITH_API_KEY ?? '';

const server = { url: endpoint, apiKey };
/** The local server as the test harness's helpers take it (test/harness/http.ts, test/harness/hostile.ts). */
export const serverAddress: { readonly url: string; readonly apiKey: string } = server;

/** A notification the extension showed during the run. */
export interface ShownMessage {
  kind: 'error' | 'warning' | 'info';
  message: string;
  /** The buttons offered (string items only). */
  items: string[];
}

// Every notification of the whole run is recorded, for the last suite's check that no API key was ever shown.
// Each suite file is bundled with its own copy of this module: the record is kept on globalThis, installed once.
const SHOWN = Symbol.for('lsw.shownMessages');
const registry = globalThis as unknown as Record<symbol, ShownMessage[] | undefined>;
type Show = (message: string, ...rest: unknown[]) => Thenable<unknown>;
const windowApi = vscode.window as unknown as Record<'showErrorMessage' | 'showWarningMessage' | 'showInformationMessage', Show>;
if (!registry[SHOWN]) {
  const list: ShownMessage[] = (registry[SHOWN] = []);
  for (const [kind, name] of [
    ['error', 'showErrorMessage'],
    ['warning', 'showWarningMessage'],
    ['info', 'showInformationMessage'],
  ] as const) {
    const original = windowApi[name];
    windowApi[name] = (message: string, ...rest: unknown[]) => {
      list.push({ kind, message: String(message), items: rest.filter((r): r is string => typeof r === 'string') });
      return original.call(vscode.window, message, ...rest);
    };
  }
}

function recordShown(kind: ShownMessage['kind'], message: string): void {
  registry[SHOWN]!.push({ kind, message: String(message), items: [] });
}

/** The notifications shown so far in this run (all suites). */
export function shownMessages(): readonly ShownMessage[] {
  return registry[SHOWN] ?? [];
}

/** A call to the local server's API; fails the test unless it answers 2xx. */
export function http<T>(method: string, path: string, body?: unknown): Promise<T> {
  return okJson<T>(server, method, path, body);
}

/** A request whatever it answers (status checks, error cases). */
export function raw(method: string, path: string, body?: unknown): Promise<RawResponse> {
  return rawRequest(server, method, path, body);
}

/** A GET that must answer 200. */
export function get<T>(path: string): Promise<T> {
  return getJson<T>(server, path);
}

/** Activates the extension and returns the services it hands to its own tests. */
export async function activateWorkbench(): Promise<WorkbenchApi> {
  const api = (await vscode.extensions.getExtension('langsmith-workbench.langsmith-workbench')!.activate()) as WorkbenchApi | undefined;
  assert.ok(api?.views, 'in test mode the extension hands its services to its own tests');
  return api;
}

export interface ScriptedRun<P extends ScriptedPrompter> {
  script: P;
  /** Error and information notifications the command showed. */
  errors: string[];
  infos: string[];
}

/** Runs a command with a scripted prompter; every scripted answer must be used. */
export async function runScripted<P extends ScriptedPrompter>(workbench: WorkbenchApi, command: string, script: P, ...args: unknown[]): Promise<ScriptedRun<P>> {
  const restore = workbench.setPrompter(script);
  const errors: string[] = [];
  const infos: string[] = [];
  type Show = (message: string, ...rest: unknown[]) => Thenable<unknown>;
  const window = vscode.window as unknown as { showErrorMessage: Show; showInformationMessage: Show };
  const { showErrorMessage, showInformationMessage } = window;
  window.showErrorMessage = async (message: string) => {
    errors.push(message);
    recordShown('error', message);
    return undefined;
  };
  window.showInformationMessage = async (message: string) => {
    infos.push(message);
    recordShown('info', message);
    return undefined;
  };
  try {
    await vscode.commands.executeCommand(command, ...args);
  } finally {
    window.showErrorMessage = showErrorMessage;
    window.showInformationMessage = showInformationMessage;
    restore();
  }
  assert.equal(script.unused, 0, `unused answers after ${command}; asked: ${script.asked.join(' | ')}`);
  return { script, errors, infos };
}

/** Waits (up to 10 s) until a document is there and its text passes the check; returns the text. */
export async function eventuallyText(doc: () => vscode.TextDocument | undefined, check: (text: string) => boolean, timeoutMs = 10_000): Promise<string> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const last = doc()?.getText() ?? '';
    if (check(last)) return last;
    if (Date.now() > end) assert.fail(`the document never showed what was expected; it shows:\n${last.slice(0, 2000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

let nextRequestId = 1;

/** Sends a request to a panel's host side as its webview would; the answer (ok or an error value). */
export async function hostCall(host: WebviewHost, method: string, params: unknown) {
  const answer = await host.router.dispatch({ kind: 'request', id: nextRequestId++, method, params });
  assert.ok(answer, `no answer to ${method}`);
  return answer;
}

/** A request that must succeed; its result. */
export async function hostOk<T>(host: WebviewHost, method: string, params: unknown): Promise<T> {
  const answer = await hostCall(host, method, params);
  assert.ok(answer.ok, `${method} failed: ${JSON.stringify(answer)}`);
  return answer.result as T;
}
