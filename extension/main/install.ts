// Installs the page-facing halves of Oriel's features, one module each, once per document (./hello.ts).
import { installBridge } from './bridge.js';
import { installDialogs } from './dialogs.js';
import { installEvaluateKit } from './evaluate-kit.js';
import { installInternals } from './internals.js';
import { greetContentScript } from './hello.js';
import { takePrimordials } from './primordials.js';
import { installNavigatorContext } from './navigator-context.js';
import { installPageToolsChannel } from './page-tools-channel.js';
import { installModelContext } from './webmcp.js';

/** Installs everything unless this document has it already. Nothing of the page is touched before this runs. */
export function installPageWorld(): void {
  takePrimordials();
  if (!greetContentScript()) return;
  installDialogs();
  installBridge();
  installModelContext();
  installNavigatorContext();
  installPageToolsChannel();
  installInternals();
  installEvaluateKit();
}
