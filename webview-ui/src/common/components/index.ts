// The only module that imports @vscode/webview-ui-toolkit (deprecated upstream). Apps use these names, so
// replacing the toolkit later is this folder's work alone.
// The toolkit's badge/tag template binds an inline style attribute, which our CSP (rightly) blocks; Badge
// is ours instead, styled from the stylesheet.
import './components.css';

export {
  VSCodeButton as Button,
  VSCodeTextField as TextField,
  VSCodeProgressRing as ProgressRing,
  VSCodeDivider as Divider,
} from '@vscode/webview-ui-toolkit/react';
export { Badge } from './Badge';
