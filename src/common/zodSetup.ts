// zod's compiled (JIT) object parsers probe `navigator` to detect runtimes without eval; in the VS Code
// extension host that probe raises a migration error in the log. Parsing without the JIT avoids it.
// This module must be the first import of the extension's entry point, before any schema is built.
import * as z from 'zod';

z.config({ jitless: true });
