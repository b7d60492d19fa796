// React wrappers for the few toolkit elements the apps use. The toolkit's own `react` entry wraps (and so ships)
// every element it has; wrapping only these keeps each webview bundle to what it shows.
import { provideReactWrapper } from '@microsoft/fast-react-wrapper';
import { provideVSCodeDesignSystem, vsCodeButton, vsCodeDivider, vsCodeProgressRing, vsCodeTextField } from '@vscode/webview-ui-toolkit';
import React from 'react';

const { wrap } = provideReactWrapper(React, provideVSCodeDesignSystem());

export const Button = wrap(vsCodeButton(), { name: 'vscode-button' });
export const TextField = wrap(vsCodeTextField(), { name: 'vscode-text-field', events: { onChange: 'change', onInput: 'input' } });
export const ProgressRing = wrap(vsCodeProgressRing(), { name: 'vscode-progress-ring' });
export const Divider = wrap(vsCodeDivider(), { name: 'vscode-divider' });
