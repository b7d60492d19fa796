// What every input box of the extension accepts. No `vscode` import, so the rules are unit-tested in Node.

/** Problems with a typed API key, or undefined when it looks usable. */
export function validateApiKeyInput(value: string): string | undefined {
  const key = value.trim();
  if (!key) return 'Enter your LangSmith API key.';
  if (/\s/.test(key)) return 'An API key has no spaces or line breaks.';
  if (key.length < 8) return 'That is too short to be a LangSmith API key.';
  return undefined;
}

/** Problems with a typed endpoint URL, or undefined when it is usable. */
export function validateEndpointInput(value: string): string | undefined {
  const text = value.trim();
  if (!text) return 'Enter the URL of the LangSmith API, e.g. https://langsmith.example.com/api/v1';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'That is not a URL: start with https:// (or http:// for a local server).';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'Use an http:// or https:// URL.';
  if (url.username || url.password) return 'Leave credentials out of the URL; the API key is asked for next.';
  if (url.search || url.hash) return 'Leave query strings and fragments out of the endpoint URL.';
  return undefined;
}

/** Validation for names of projects, datasets and queues. */
export function validateName(kind: string): (value: string) => string | undefined {
  return (value) => {
    const v = value.trim();
    if (!v) return `Give the ${kind} a name.`;
    if (v.length > 200) return `Keep the ${kind} name under 200 characters.`;
    if (/[\u0000-\u001f\u007f]/.test(v)) return 'Names cannot contain control characters.';
    return undefined;
  };
}

/** Validation for prompt names: the hub's handle rules (lowercase letters, digits, - and _). */
export function validatePromptName(value: string): string | undefined {
  const v = value.trim();
  if (!v) return 'Give the prompt a name.';
  if (v.length > 100) return 'Keep the prompt name under 100 characters.';
  if (!/^[a-z0-9][a-z0-9_-]*$/.test(v)) return 'Use lowercase letters, digits, - and _ (starting with a letter or digit).';
  return undefined;
}
