// The `as` argument of tools whose results can be large binaries (screenshot, downloads): `"link"` answers with an MCP
// resource link the client reads with resources/read instead of inline bytes (docs/tools.md, "Results as resource
// links"; broker/mcp/resources.ts keeps them). Left out of tools/list: the server's instructions explain it.
import { z } from 'zod';

/** `as`: `"inline"` (the default) or `"link"`. */
export const AS_ARG = z.enum(['inline', 'link']).optional().meta({ default: 'inline' });

/** What a tool's usage line says of `as` (the server's instructions and docs/tools.md carry it). */
export const AS_USAGE = 'as "link" answers with a resource_link to read with resources/read (10 min, this connection) instead of the bytes';
