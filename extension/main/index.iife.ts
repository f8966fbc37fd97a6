// The page-world script as the background injects it into a shared tab (extension/background/page-hooks.ts): installs
// at once. It runs with the page's privileges and holds nothing an agent or the person entrusted to Oriel; the content
// script (extension/content/) talks to it only through the events of shared/page-channel.ts and treats all it hears as
// page content. Tabs that are not shared never receive it (docs/architecture.md, "What a page can see").
import { installPageWorld } from './install.js';

installPageWorld();
