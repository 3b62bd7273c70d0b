import {
  ARTIFACT_LIB_PREFIX,
  ARTIFACT_LIBRARIES,
  artifactMetaCsp,
  type Block,
  type Inline,
  parseMarkdown,
  safeHref,
  safeImageSrc,
  type TArtifactKind,
} from "@cohort/contracts";

/**
 * The document a preview frame shows for an artifact (decision 063). It is written into the
 * frame served at ARTIFACT_FRAME_PATH, whose own policy already forbids every connection;
 * the <meta> policy here says the same inside the document. Libraries come from Cohort's
 * library path, and only those the kind needs.
 */
export function previewDocument(kind: TArtifactKind, code: string, origin: string): string {
  // The policy, then the height report (decision 068): the page says how tall it is, so the
  // frame fits it (the app bounds what it accepts; a script faking it gains a taller box).
  const meta = `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(artifactMetaCsp(origin))}">${heightReport(origin)}`;
  const lib = (name: string) => `<script src="${origin}${ARTIFACT_LIB_PREFIX}${name}"></script>`;
  switch (kind) {
    case "html":
      return withMeta(code, meta);
    case "svg":
      return page(
        meta,
        "html,body{margin:0;height:100%}body{display:grid;place-items:center}svg{max-width:100%;height:auto}",
        code,
      );
    case "markdown":
      return page(meta, PROSE_STYLE, markdownToHtml(code));
    case "csv":
      return page(meta, TABLE_STYLE, csvToHtml(code));
    case "mermaid":
      return page(
        meta,
        "body{margin:16px;font-family:system-ui,sans-serif}#out svg{max-width:100%;height:auto}",
        `<div id="out"></div>${SHOW_ERROR}${lib(ARTIFACT_LIBRARIES.mermaid)}<script>(function () {
  try {
    mermaid.initialize({ startOnLoad: false, securityLevel: "strict" });
    mermaid.render("cohort-diagram", ${jsString(code)}).then(function (result) {
      document.getElementById("out").innerHTML = result.svg;
    }, showError);
  } catch (error) { showError(error); }
})();</script>`,
      );
    case "react":
      return page(
        meta,
        "body{margin:16px;font-family:system-ui,sans-serif}",
        `<div id="root"></div>${SHOW_ERROR}${lib(ARTIFACT_LIBRARIES.react)}${lib(ARTIFACT_LIBRARIES.jsx)}<script>(function () {
  try {
    var out = sucrase.transform(${jsString(code)}, { transforms: ["jsx", "typescript", "imports"], production: true }).code;
    var module = { exports: {} };
    window.__cohortModule = module;
    window.__cohortRequire = function (name) {
      if (name === "react") return React;
      if (name === "react-dom" || name === "react-dom/client") return ReactDOM;
      throw new Error('The preview has no package "' + name + '": only react and react-dom.');
    };
    var script = document.createElement("script");
    script.textContent = "(function (require, module, exports) {\\n" + out + "\\n})(window.__cohortRequire, window.__cohortModule, window.__cohortModule.exports);";
    document.body.appendChild(script);
    var Component = module.exports.default || module.exports.App || window.App;
    if (typeof Component !== "function") throw new Error("The component needs a default export (or one called App).");
    ReactDOM.createRoot(document.getElementById("root")).render(React.createElement(Component));
  } catch (error) { showError(error); }
})();</script>`,
      );
  }
}

/** Shows a failure inside the preview, where the artifact would have been. */
const SHOW_ERROR = `<script>function showError(error) {
  var box = document.createElement("pre");
  box.setAttribute("role", "alert");
  box.style.cssText = "color:#991b1b;background:#fef2f2;border:1px solid #fecaca;border-radius:8px;padding:8px;white-space:pre-wrap;font:13px/1.4 ui-monospace,monospace";
  box.textContent = "The preview failed: " + (error && error.message ? error.message : String(error));
  document.body.appendChild(box);
}
window.addEventListener("error", function (event) { showError(event.error || event.message); });</script>`;

const PROSE_STYLE =
  "body{margin:16px;font:15px/1.6 system-ui,sans-serif;color:#1f2937}pre{background:#f3f4f6;padding:8px;border-radius:6px;overflow:auto}code{font-family:ui-monospace,monospace}table{border-collapse:collapse}td,th{border:1px solid #d1d5db;padding:4px 8px}blockquote{border-left:4px solid #d1d5db;margin-left:0;padding-left:12px;color:#4b5563}img{max-width:100%}";
const TABLE_STYLE =
  "body{margin:12px;font:14px/1.5 system-ui,sans-serif;color:#1f2937}table{border-collapse:collapse}td,th{border:1px solid #d1d5db;padding:4px 8px;text-align:left}th{background:#f3f4f6}";

/** The message a preview sends its parent with its content's height, in CSS pixels. */
export const ARTIFACT_HEIGHT_MESSAGE = "cohort-artifact-height";

function heightReport(origin: string): string {
  return `<script>(function () {
  var last = -1;
  function send() {
    // The root's box, not its scrollHeight (which never drops below the frame's own height).
    var root = document.documentElement.getBoundingClientRect().height;
    var height = Math.ceil(Math.max(root, document.body ? document.body.scrollHeight : 0));
    if (height === last) return;
    last = height;
    parent.postMessage({ type: ${jsString(ARTIFACT_HEIGHT_MESSAGE)}, height: height }, ${jsString(origin)});
  }
  addEventListener("load", send);
  addEventListener("DOMContentLoaded", function () {
    send();
    if (typeof ResizeObserver === "function") new ResizeObserver(send).observe(document.body);
  });
})();</script>`;
}

function page(meta: string, style: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">${meta}<style>${style}</style></head><body>${body}</body></html>`;
}

/** Puts the policy into an HTML document's head, keeping its doctype first (no quirks mode). */
function withMeta(html: string, meta: string): string {
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (head)
    return (
      html.slice(0, head.index + head[0].length) + meta + html.slice(head.index + head[0].length)
    );
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html);
  if (doctype) return doctype[0] + meta + html.slice(doctype[0].length);
  return meta + html;
}

/** A JavaScript string literal that cannot end the <script> it stands in. */
function jsString(text: string): string {
  return JSON.stringify(text)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

function inlineHtml(nodes: Inline[]): string {
  return nodes
    .map((node) => {
      switch (node.type) {
        case "text":
          return escapeHtml(node.text);
        case "strong":
          return `<strong>${inlineHtml(node.children)}</strong>`;
        case "em":
          return `<em>${inlineHtml(node.children)}</em>`;
        case "del":
          return `<del>${inlineHtml(node.children)}</del>`;
        case "code":
          return `<code>${escapeHtml(node.text)}</code>`;
        case "break":
          return "<br>";
        case "link": {
          const href = safeHref(node.href);
          const text = inlineHtml(node.children);
          return href ? `<a href="${escapeHtml(href)}">${text}</a>` : text;
        }
        case "image": {
          const src = safeImageSrc(node.src);
          return src ? `<img src="${escapeHtml(src)}" alt="${escapeHtml(node.alt)}">` : "";
        }
      }
      return "";
    })
    .join("");
}

function blocksHtml(blocks: Block[]): string {
  return blocks
    .map((block) => {
      switch (block.type) {
        case "heading":
          return `<h${block.level}>${inlineHtml(block.children)}</h${block.level}>`;
        case "paragraph":
          return `<p>${inlineHtml(block.children)}</p>`;
        case "code":
          return `<pre><code>${escapeHtml(block.text)}</code></pre>`;
        case "quote":
          return `<blockquote>${blocksHtml(block.children)}</blockquote>`;
        case "list": {
          const items = block.items.map((item) => `<li>${blocksHtml(item)}</li>`).join("");
          return block.ordered
            ? `<ol${block.start === 1 ? "" : ` start="${block.start}"`}>${items}</ol>`
            : `<ul>${items}</ul>`;
        }
        case "table": {
          const cell = (tag: string, content: Inline[], c: number) => {
            const align = block.align[c];
            return `<${tag}${align ? ` style="text-align:${align}"` : ""}>${inlineHtml(content)}</${tag}>`;
          };
          const head = block.head.map((c, i) => cell("th", c, i)).join("");
          const rows = block.rows
            .map((row) => `<tr>${row.map((c, i) => cell("td", c, i)).join("")}</tr>`)
            .join("");
          return `<table><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>`;
        }
        case "rule":
          return "<hr>";
      }
      return "";
    })
    .join("");
}

/** Markdown as HTML through the one Markdown reader: nothing in the text becomes markup. */
export function markdownToHtml(text: string): string {
  return blocksHtml(parseMarkdown(text));
}

/** The rows of a CSV text (RFC 4180: quoted fields, doubled quotes, CRLF or LF). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"' && field === "") quoted = true;
    else if (ch === ",") {
      row.push(field);
      field = "";
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += ch;
  }
  if (field !== "" || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.some((cell) => cell.trim() !== ""));
}

/** A CSV text as a table, its first row as the header. */
export function csvToHtml(text: string): string {
  const [head = [], ...rows] = parseCsv(text);
  const cells = (tag: string, row: string[]) =>
    row.map((cell) => `<${tag}>${escapeHtml(cell)}</${tag}>`).join("");
  return `<table><thead><tr>${cells("th", head)}</tr></thead><tbody>${rows
    .map((row) => `<tr>${cells("td", row)}</tr>`)
    .join("")}</tbody></table>`;
}
