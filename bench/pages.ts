// Generated benchmark pages: a product-listing style page of about N elements, served as static HTML, with the names
// of every visible interactive element so the benchmark can check that the outline shows each one with a handle.

export interface GeneratedPage {
  /** Target element count asked for. */
  target: number;
  html: string;
  /** Elements in the document (opening tags, html/head/body included). */
  elements: number;
  /** Accessible names of the visible interactive elements, each unique on the page. */
  interactive: string[];
  /** Interactive elements that are present but hidden (display:none), which an outline must leave out. */
  hiddenInteractive: number;
}

/** One section of the page: a card with nested wrappers, heading, text, list of links, a small form and a table. */
function unit(i: number, names: string[]): { html: string; hidden: number } {
  const links = [0, 1, 2].map((k) => {
    names.push(`Product ${i}-${k}`);
    return `<li><a href="/item/${i}/${k}">Product ${i}-${k}</a></li>`;
  });
  names.push(`Quantity ${i}`, `Size ${i}`, `Gift wrap ${i}`, `Add to cart ${i}`, `More about ${i}`);
  let extra = '';
  if (i % 5 === 0) {
    names.push(`Note ${i}`);
    extra = `<div class="form-row"><textarea aria-label="Note ${i}" rows="2"></textarea></div>`;
  }
  const html =
    `<section class="card" id="s${i}"><div class="card-head"><div class="title-row">` +
    `<h2>Section ${i}</h2><span class="badge">new</span></div></div>` +
    `<div class="card-body"><div class="col">` +
    `<p>Item ${i} ships in <b>two days</b> from our <em>local</em> store; see the details below.</p>` +
    `<ul class="links">${links.join('')}</ul>` +
    `<div class="form-row"><label for="q${i}">Quantity ${i}</label><input id="q${i}" type="number" value="1" min="1"></div>` +
    `<div class="form-row"><select aria-label="Size ${i}"><option>Small</option><option selected>Medium</option><option>Large</option></select></div>` +
    `<label class="check"><input type="checkbox"> Gift wrap ${i}</label>` +
    extra +
    `<div class="actions"><button type="button" class="add">Add to cart ${i}</button>` +
    `<div class="more" role="button" tabindex="0">More about ${i}</div></div>` +
    `<table class="specs"><thead><tr><th>Spec</th><th>Value</th></tr></thead>` +
    `<tbody><tr><td>Weight</td><td>${(i % 9) + 1} kg</td></tr><tr><td>Colour</td><td>${['red', 'blue', 'green'][i % 3]}</td></tr></tbody></table>` +
    `<div class="menu" style="display:none"><a href="/menu/${i}">Hidden link ${i}</a><button type="button">Hidden button ${i}</button></div>` +
    `</div></div></section>`;
  return { html, hidden: 2 };
}

/** Counts opening tags (elements) in an HTML string we generated ourselves. */
function countElements(html: string): number {
  return (html.match(/<[a-z][a-z0-9]*[\s>]/g) ?? []).length;
}

/** A page of about `target` elements (it stops at the first whole section that reaches the target). */
export function generatePage(target: number): GeneratedPage {
  const head =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bench ${target}</title>` +
    `<style>body{font:14px sans-serif;margin:0}.card{border:1px solid #ccc;margin:8px;padding:8px}` +
    `.title-row,.actions,.form-row{display:flex;gap:6px;align-items:center}.more{cursor:pointer;color:#06c}` +
    `table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:2px 6px}</style></head><body>`;
  const top = `<header><h1>Catalogue of ${target} elements</h1></header><main>`;
  const tail = `</main><footer><p>End of the catalogue.</p></footer><script>` +
    // Buttons and fields change the page a little, as an app would: a counter next to each Add button.
    `document.addEventListener('click',e=>{const b=e.target.closest('button.add');if(b)b.dataset.n=String(Number(b.dataset.n||0)+1)});` +
    `</script></body></html>`;
  const names: string[] = [];
  const parts: string[] = [];
  let elements = countElements(head + top + tail);
  let hidden = 0;
  for (let i = 0; elements < target; i++) {
    const u = unit(i, names);
    parts.push(u.html);
    hidden += u.hidden;
    elements += countElements(u.html);
  }
  return { target, html: head + top + parts.join('\n') + tail, elements, interactive: names, hiddenInteractive: hidden };
}

/**
 * A flat page: `rows` rows side by side under one `<div>`, each a text span, a button and a link (four elements a
 * row). No nesting, no labels, no tables: it shows costs that grow with the number of siblings rather than depth.
 * `target` is the number of rows.
 */
export function generateFlatPage(rows: number): GeneratedPage {
  const names: string[] = [];
  const parts: string[] = [];
  for (let i = 0; i < rows; i++) {
    names.push(`Button ${i}`, `Link ${i}`);
    parts.push(`<div class=row><span>text ${i}</span><button type=button>Button ${i}</button><a href="#r${i}">Link ${i}</a></div>`);
  }
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Flat ${rows}</title></head><body><div>\n${parts.join('\n')}\n</div></body></html>`;
  return { target: rows, html, elements: countElements(html), interactive: names, hiddenInteractive: 0 };
}
