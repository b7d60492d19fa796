// Code that uses the demo prompts. Hover a prompt's name to read the version it pulls, F12 (Go to Definition)
// opens its prompt file (demo-summarizer.prompt.yaml here) or else the remote version, and inside the quotes
// completion offers the prompts and, after a colon, their tags.
import { Client } from 'langsmith';
import * as hub from 'langchain/hub';

const client = new Client();

/** The manifest of a prompt version as LangSmith stores it. */
async function pullPrompt(identifier: string): Promise<unknown> {
  return (await client.pullPromptCommit(identifier)).manifest;
}

export async function summarizerVersions(): Promise<unknown[]> {
  // The latest commit, and what production runs (a commit behind).
  return Promise.all([pullPrompt('demo-summarizer'), pullPrompt('demo-summarizer:production')]);
}

export async function classifier(): Promise<unknown> {
  return hub.pull('demo-classifier:production');
}

export async function ragAnswer(): Promise<unknown> {
  return client.pullPromptCommit('demo-rag-answer', { includeModel: true });
}
