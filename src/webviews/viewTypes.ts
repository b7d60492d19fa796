// The view types of the webview panels, apart from their code: activation registers a serializer for each
// without loading the panel (or its protocol schemas) until one is opened or restored.
export const ViewTypes = {
  hello: 'langsmith.hello',
} as const;
