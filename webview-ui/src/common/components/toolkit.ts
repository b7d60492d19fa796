// React wrappers for the few toolkit elements the apps use (marked pure: an app that uses none of them ships none). The toolkit's own `react` entry wraps (and so ships)
// every element it has; wrapping only these keeps each webview bundle to what it shows.
import { provideReactWrapper } from '@microsoft/fast-react-wrapper';
import { provideVSCodeDesignSystem, vsCodeButton, vsCodeDivider, vsCodeProgressRing, vsCodeTextField } from '@vscode/webview-ui-toolkit';
import React from 'react';

const { wrap } = /* @__PURE__ */ provideReactWrapper(React, /* @__PURE__ */ provideVSCodeDesignSystem());

export const Button = /* @__PURE__ */ wrap(/* @__PURE__ */ vsCodeButton(), { name: 'vscode-button' });
export const TextField = /* @__PURE__ */ wrap(/* @__PURE__ */ vsCodeTextField(), { name: 'vscode-text-field', events: { onChange: 'change', onInput: 'input' } });
export const ProgressRing = /* @__PURE__ */ wrap(/* @__PURE__ */ vsCodeProgressRing(), { name: 'vscode-progress-ring' });
export const Divider = /* @__PURE__ */ wrap(/* @__PURE__ */ vsCodeDivider(), { name: 'vscode-divider' });
