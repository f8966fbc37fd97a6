// `oriel config <client>`: the MCP server entry for common clients, with the file it belongs in on each OS.
import type { HostOs } from './context.js';
import { shQuote } from './launcher.js';

/** Clients `oriel config` knows. */
export const MCP_CLIENTS = ['claude-desktop', 'claude-code', 'cursor', 'vscode', 'codex', 'windsurf', 'generic'] as const;
export type McpClient = (typeof MCP_CLIENTS)[number];

/** A configuration to paste: its text, format, and where it goes. */
export interface ClientConfig {
  client: McpClient;
  format: 'json' | 'toml' | 'shell';
  /** What to paste or run; stdout carries only this, so it can be redirected. */
  snippet: string;
  /** Where it goes, one line per OS or scope. */
  where: string[];
}

/**
 * Said under every snippet: how to let the client's app ask Oriel's permission questions too (off by default;
 * docs/architecture.md, "Asking in the agent's app").
 */
export const ASK_IN_APP_NOTE = [
  "Optional: to answer Oriel's permission prompts in this app as well as in the browser's popup (apps that support",
  'MCP elicitation), add the name the app gives itself (the popup shows it on each prompt) under',
  '"Asking in your agent\'s app" in Oriel\'s options. Only for an app you trust to show you the question.',
];

/** The server name the entry is registered under. */
export const SERVER_NAME = 'oriel';

function json(value: unknown): string {
  return JSON.stringify(value, null, 2) + '\n';
}

/** A TOML basic string: JSON's escapes (`\"`, `\\`, `\n`, `\uXXXX`) are all valid TOML escapes. */
function tomlString(s: string): string {
  return JSON.stringify(s);
}

/** Quotes a word for the user's shell: POSIX single quotes, or double quotes on Windows. */
function shellWord(word: string, os: HostOs): string {
  if (/^[\w@%+=:,./-]+$/.test(word)) return word;
  return os === 'win32' ? `"${word}"` : shQuote(word);
}

/**
 * The variables that move where Oriel's hub is (docs/native-messaging.md, "Connections to the hub"): when the person
 * set one in the shell running `oriel config`, the client must pass it too, or its `oriel mcp` looks elsewhere. None
 * is needed otherwise: relays find the hub from the home folder whatever else their environment holds.
 */
export const HUB_LOCATION_VARS = ['ORIEL_RUNTIME_DIR', 'ORIEL_DATA_DIR'] as const;

/** The {@link HUB_LOCATION_VARS} set in `env`. */
export function hubLocationEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(HUB_LOCATION_VARS.filter((n) => env[n]).map((n) => [n, env[n]!]));
}

/**
 * The configuration snippet for `client`, running `<nodePath> <cliPath> mcp` (absolute paths, so it works without
 * `oriel` on the client's PATH), with `--tools <tools>` when a tool set is given (docs/tools.md, "Tool sets"), and
 * `env` (from {@link hubLocationEnv}) only when it holds something.
 */
export function clientConfig(client: McpClient, run: { nodePath: string; cliPath: string; os: HostOs; tools?: string; env?: Record<string, string> }): ClientConfig {
  const command = run.nodePath;
  const args = [run.cliPath, 'mcp', ...(run.tools ? ['--tools', run.tools] : [])];
  const env = run.env ?? {};
  const hasEnv = Object.keys(env).length > 0;
  const stdio = { command, args, ...(hasEnv && { env }) };
  switch (client) {
    case 'claude-desktop':
      return {
        client,
        format: 'json',
        snippet: json({ mcpServers: { [SERVER_NAME]: stdio } }),
        where: [
          'Merge into "mcpServers" of claude_desktop_config.json (Claude Desktop: Settings → Developer → Edit Config), then restart Claude Desktop:',
          '  macOS:   ~/Library/Application Support/Claude/claude_desktop_config.json',
          '  Windows: %APPDATA%\\Claude\\claude_desktop_config.json',
          '  Linux:   ~/.config/Claude/claude_desktop_config.json',
        ],
      };
    case 'claude-code':
      return {
        client,
        format: 'shell',
        snippet: ['claude', 'mcp', 'add', '--scope', 'user', ...Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]), SERVER_NAME, '--', command, ...args].map((w) => shellWord(w, run.os)).join(' ') + '\n',
        where: [
          'Run this command. With --scope user Claude Code keeps the entry in ~/.claude.json (every OS; %USERPROFILE%\\.claude.json on Windows);',
          'use --scope project instead to write .mcp.json in the current project.',
        ],
      };
    case 'cursor':
      return {
        client,
        format: 'json',
        snippet: json({ mcpServers: { [SERVER_NAME]: stdio } }),
        where: [
          'Merge into "mcpServers" of Cursor\'s mcp.json:',
          '  all projects: ~/.cursor/mcp.json (Windows: %USERPROFILE%\\.cursor\\mcp.json)',
          '  one project:  <project>/.cursor/mcp.json',
        ],
      };
    case 'vscode':
      return {
        client,
        format: 'json',
        snippet: json({ servers: { [SERVER_NAME]: { type: 'stdio', ...stdio } } }),
        where: [
          'Merge into "servers" of an mcp.json:',
          '  one workspace: <workspace>/.vscode/mcp.json',
          '  your profile (command "MCP: Open User Configuration"):',
          '    Linux:   ~/.config/Code/User/mcp.json',
          '    macOS:   ~/Library/Application Support/Code/User/mcp.json',
          '    Windows: %APPDATA%\\Code\\User\\mcp.json',
        ],
      };
    case 'codex':
      return {
        client,
        format: 'toml',
        snippet: `[mcp_servers.${SERVER_NAME}]\ncommand = ${tomlString(command)}\nargs = [${args.map(tomlString).join(', ')}]\n${hasEnv ? `\n[mcp_servers.${SERVER_NAME}.env]\n${Object.entries(env).map(([k, v]) => `${k} = ${tomlString(v)}\n`).join('')}` : ''}`,
        where: ['Append to ~/.codex/config.toml (Windows: %USERPROFILE%\\.codex\\config.toml; $CODEX_HOME/config.toml when CODEX_HOME is set).'],
      };
    case 'windsurf':
      return {
        client,
        format: 'json',
        snippet: json({ mcpServers: { [SERVER_NAME]: stdio } }),
        where: ['Merge into "mcpServers" of ~/.codeium/windsurf/mcp_config.json (Windows: %USERPROFILE%\\.codeium\\windsurf\\mcp_config.json), then refresh Windsurf\'s MCP servers.'],
      };
    case 'generic':
      return {
        client,
        format: 'json',
        snippet: json({ name: SERVER_NAME, transport: 'stdio', ...stdio }),
        where: ['Any MCP client that starts stdio servers: run "command" with "args". The server speaks MCP on stdin/stdout and logs to stderr.'],
      };
  }
}

/** Name of the environment variable the Codex form reads the token from (Codex refuses a token inline). */
export const TOKEN_ENV = 'ORIEL_HTTP_TOKEN';

/**
 * The HTTP form of the configuration (`oriel config <client> --http`), for clients that prefer Streamable HTTP to
 * starting `oriel mcp`: the URL of `oriel serve --http` and the bearer token (a secret: the snippet is for the
 * client's own configuration). `undefined` for clients whose configuration file takes stdio servers only.
 */
export function clientHttpConfig(client: McpClient, http: { url: string; token: string; tokenPath: string; os: HostOs }): ClientConfig | undefined {
  const authorization = `Bearer ${http.token}`;
  const serve = `Run \`oriel serve --http\` (keep it running) before starting the client.`;
  switch (client) {
    case 'claude-desktop':
      return undefined;
    case 'claude-code':
      return {
        client,
        format: 'shell',
        snippet:
          ['claude', 'mcp', 'add', '--scope', 'user', '--transport', 'http', SERVER_NAME, http.url, '--header', `Authorization: ${authorization}`].map((w) => shellWord(w, http.os)).join(' ') + '\n',
        where: ['Run this command (it holds the token: keep it out of shared shell history).', serve],
      };
    case 'cursor':
      return {
        client,
        format: 'json',
        snippet: json({ mcpServers: { [SERVER_NAME]: { url: http.url, headers: { Authorization: authorization } } } }),
        where: ['Merge into "mcpServers" of ~/.cursor/mcp.json (or <project>/.cursor/mcp.json); it holds the token.', serve],
      };
    case 'vscode':
      return {
        client,
        format: 'json',
        snippet: json({ servers: { [SERVER_NAME]: { type: 'http', url: http.url, headers: { Authorization: authorization } } } }),
        where: ['Merge into "servers" of an mcp.json (<workspace>/.vscode/mcp.json or your profile\'s); it holds the token.', serve],
      };
    case 'codex':
      return {
        client,
        format: 'toml',
        snippet: `[mcp_servers.${SERVER_NAME}]\nurl = ${tomlString(http.url)}\nbearer_token_env_var = ${tomlString(TOKEN_ENV)}\n`,
        where: [
          `Append to ~/.codex/config.toml, and start Codex with ${TOKEN_ENV} set to the token in ${http.tokenPath}`,
          `(e.g. export ${TOKEN_ENV}="$(cat ${shellWord(http.tokenPath, http.os)})"); Codex does not take the token inline.`,
          serve,
        ],
      };
    case 'windsurf':
      return {
        client,
        format: 'json',
        snippet: json({ mcpServers: { [SERVER_NAME]: { serverUrl: http.url, headers: { Authorization: authorization } } } }),
        where: ['Merge into "mcpServers" of ~/.codeium/windsurf/mcp_config.json; it holds the token.', serve],
      };
    case 'generic':
      return {
        client,
        format: 'json',
        snippet: json({ name: SERVER_NAME, transport: 'streamable-http', url: http.url, headers: { Authorization: authorization } }),
        where: ['Any MCP client that speaks Streamable HTTP: POST to "url" with the "Authorization" header. It holds the token.', serve],
      };
  }
}
