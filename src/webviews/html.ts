import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

/** Where the built webview bundles live; also the only folder a webview may load from. */
export function webviewRoot(extensionUri: vscode.Uri): vscode.Uri {
  return vscode.Uri.joinPath(extensionUri, 'dist', 'webviews');
}

export function createNonce(): string {
  return randomBytes(18).toString('base64');
}

/**
 * The page of one webview app under a strict CSP: scripts and styles only from the extension's webview folder
 * or with this load's nonce, no network access but images. The toolkit reads the nonce from the csp-nonce meta tag for the
 * one style element it injects, so no 'unsafe-inline' is needed. The app is an ES module: the chunks it imports
 * (dist/webviews/chunk-*.js, shared by the apps) load from the same folder under the script's nonce.
 */
export function renderWebviewHtml(webview: vscode.Webview, extensionUri: vscode.Uri, app: string, title: string, hasCss: boolean): string {
  const nonce = createNonce();
  const root = webviewRoot(extensionUri);
  const script = webview.asWebviewUri(vscode.Uri.joinPath(root, `${app}.js`));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(root, `${app}.css`));
  // The common components' styles, one file for every app (see esbuild.mjs, commonStyles).
  const commonStyle = webview.asWebviewUri(vscode.Uri.joinPath(root, 'common.css'));
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}' ${webview.cspSource}`,
    `style-src 'nonce-${nonce}' ${webview.cspSource}`,
    // Images from https, and from a LangSmith on this machine (the local server's attachment links are http on
    // the loopback): the trace viewer shows a run's images from their links, never inlined.
    `img-src ${webview.cspSource} https: data: http://127.0.0.1:* http://localhost:*`,
    `font-src ${webview.cspSource}`,
    "connect-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta property="csp-nonce" content="${nonce}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" nonce="${nonce}" href="${commonStyle}">
${hasCss ? `<link rel="stylesheet" nonce="${nonce}" href="${style}">` : ''}
</head>
<body>
<div id="root"></div>
<script type="module" nonce="${nonce}" src="${script}"></script>
</body>
</html>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
