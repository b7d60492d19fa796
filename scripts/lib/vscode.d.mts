// Types for vscode.mjs, so TypeScript tests can drive a real VS Code.
import type { ChildProcess } from 'node:child_process';
import type { Browser } from 'playwright-core';

export const TOOLS_DIR: string;
export const NODE24: string;
export const CODE_SERVER_ENTRY: string;
export const CHROMIUM: string;
export const RUNS_DIR: string;
export const EXTENSION_ID: string;

export interface CodeServer {
  url: string;
  port: number;
  runDir: string;
  workspace: string;
  logFile: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export function assertToolsInstalled(): void;
export function freePort(host?: string): Promise<number>;
export function startCodeServer(options?: {
  workspace?: string;
  settings?: Record<string, unknown>;
  port?: number;
  host?: string;
  smokeDriver?: boolean;
  vsix?: string;
  env?: Record<string, string | undefined>;
  stateDir?: string;
  log?: (line: string) => void;
}): Promise<CodeServer>;
export function workbenchUrl(
  server: CodeServer,
  options?: { folder?: string; extensionDevelopmentPath?: string | string[]; extensionTestsPath?: string },
): string;
export function launchBrowser(): Promise<Browser>;
export function runExtensionTests(options: {
  extensionDevelopmentPath: string | string[];
  extensionTestsPath: string;
  folder?: string;
  env?: Record<string, string>;
  timeoutMs?: number;
  log?: (line: string) => void;
}): Promise<number>;
