// The options page: the user's redaction selectors and value limit. An invalid selector is refused here, and a
// snapshot refuses to run with one rather than show unredacted content.
import { readSettings, writeSettings } from '../settings.js';

const selectors = document.getElementById('selectors') as HTMLTextAreaElement;
const limit = document.getElementById('limit') as HTMLInputElement;
const result = document.getElementById('result')!;

function invalidSelector(list: string[]): string | undefined {
  const probe = document.createDocumentFragment();
  for (const s of list) {
    try {
      probe.querySelector(s);
    } catch {
      return s;
    }
  }
  return undefined;
}

async function load(): Promise<void> {
  const s = await readSettings();
  selectors.value = s.redactSelectors.join('\n');
  limit.value = String(s.valueLimit);
}

document.getElementById('form')!.addEventListener('submit', (event) => {
  event.preventDefault();
  const list = selectors.value.split('\n').map((l) => l.trim()).filter(Boolean);
  const bad = invalidSelector(list);
  if (bad !== undefined) {
    result.textContent = `Not a valid CSS selector: ${bad}`;
    result.className = 'error';
    return;
  }
  void writeSettings({ redactSelectors: list, valueLimit: Number(limit.value) }).then(() => {
    result.textContent = 'Saved.';
    result.className = '';
    return load();
  });
});

void load();
