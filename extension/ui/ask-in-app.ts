// The options page's list of apps that may ask the person permission questions too (MCP elicitation): add a client
// name, or stop one; stored in the settings, which the background sends to the hub as policy (../background/policy.ts).
import { MAX_APP_CLIENT_CHARS, MAX_APP_CLIENTS } from '../../shared/ask-in-app.js';
import { readSettings, writeSettings } from '../settings.js';

const list = document.getElementById('app-clients')!;
const none = document.getElementById('no-app-clients')!;
const input = document.getElementById('app-name') as HTMLInputElement;
const result = document.getElementById('app-result')!;

async function render(): Promise<void> {
  const names = (await readSettings().catch(() => undefined))?.askInApp ?? [];
  none.hidden = names.length > 0;
  list.replaceChildren(
    ...names.map((name) => {
      const item = document.createElement('li');
      item.dataset.app = name;
      const label = document.createElement('span');
      label.textContent = name; // the name is the client's own word: shown as text, never HTML
      const stop = document.createElement('button');
      stop.type = 'button';
      stop.dataset.stop = name;
      stop.textContent = 'Stop asking there';
      stop.addEventListener('click', () => void change(names.filter((n) => n !== name), `${name} no longer asks.`));
      item.append(label, ' ', stop);
      return item;
    }),
  );
}

async function change(names: string[], said: string): Promise<void> {
  try {
    await writeSettings({ askInApp: names });
    result.textContent = said;
    result.className = '';
  } catch (err) {
    result.textContent = `Not saved: ${err instanceof Error ? err.message : String(err)}`;
    result.className = 'error';
  }
  await render();
}

document.getElementById('app-form')!.addEventListener('submit', (event) => {
  event.preventDefault();
  const name = input.value.trim();
  void (async () => {
    const names = (await readSettings().catch(() => undefined))?.askInApp ?? [];
    if (!name || name.length > MAX_APP_CLIENT_CHARS || names.length >= MAX_APP_CLIENTS) {
      result.textContent = `Give a name of 1 to ${MAX_APP_CLIENT_CHARS} characters (at most ${MAX_APP_CLIENTS} apps).`;
      result.className = 'error';
      return;
    }
    input.value = '';
    await change(names.includes(name) ? names : [...names, name], `${name} may ask.`);
  })();
});

void render();
