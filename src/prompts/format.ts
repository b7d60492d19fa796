// The prompt-file bundle (dist/promptFile.js): the format, its conversion to manifests, and the push logic.
// The extension loads it with `await import('../prompts/format')` once a prompt file is open or a prompt
// command runs, so activation never parses YAML.
export * from './engine';
