// The only module that imports @vscode/webview-ui-toolkit (deprecated upstream). Apps use these names, so
// replacing the toolkit later is this folder's work alone.
// The toolkit's badge/tag template binds an inline style attribute, which our CSP (rightly) blocks; Badge
// is ours instead, styled from the stylesheet.
import './components.css';

export { Button, Divider, ProgressRing, TextField } from './toolkit';
export { Badge } from './Badge';
export { Banner } from './Banner';
export { JsonField } from './JsonField';
export { ToggleButton } from './ToggleButton';
export { TextButton } from './TextButton';
// Last: the helper classes override the components' own styles.
import './helpers.css';
