// Turns off zod's compiled fast path (it builds parsers with the Function constructor) for one extension context.
// Every entry imports this module first — background/index.ts, content/index.iife.ts, ui/popup.ts, ui/options.ts —
// because zod reads the setting when a schema is built. vite.config.ts strips the now-unreachable compiler from the
// bundles, so stores' reviewers and `web-ext lint` find no Function constructor (test/unit/store-package.test.ts).
import { z } from 'zod';

z.config({ jitless: true });
