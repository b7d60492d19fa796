// zod's compiled (JIT) object parsers probe `navigator` to detect runtimes without eval; in the VS Code
// extension host that probe raises a migration error in the log. Parsing without the JIT avoids it.
// Modules that parse with zod in the extension host import this first (the API client loader, the webview
// host); zod/mini and zod share this configuration.
import { config } from 'zod/mini';

config({ jitless: true });
