import { describe, expect, it } from "vitest";
import { csvToHtml, markdownToHtml, parseCsv, previewDocument } from "./preview-document";

const ORIGIN = "http://cohort.test";

describe("previewDocument", () => {
  it("puts the no-network policy into an HTML page's head, keeping its doctype first", () => {
    const doc = previewDocument(
      "html",
      "<!doctype html><html><head><title>T</title></head></html>",
      ORIGIN,
    );
    expect(
      doc.startsWith(
        '<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; script-src &#39;unsafe-inline&#39; http://cohort.test/artifact-lib/;',
      ),
    ).toBe(true);
  });

  it("loads only the libraries a kind needs, from Cohort's library path", () => {
    expect(previewDocument("mermaid", "graph TD; A-->B", ORIGIN)).toContain(
      '<script src="http://cohort.test/artifact-lib/mermaid.js"></script>',
    );
    expect(previewDocument("mermaid", "graph TD; A-->B", ORIGIN)).not.toContain("react.js");
    const react = previewDocument(
      "react",
      "export default function App() { return <p/>; }",
      ORIGIN,
    );
    expect(react).toContain('<script src="http://cohort.test/artifact-lib/react.js"></script>');
    expect(react).toContain('<script src="http://cohort.test/artifact-lib/sucrase.js"></script>');
    expect(previewDocument("svg", "<svg></svg>", ORIGIN)).not.toContain("<script src");
  });

  it("reports its content's height to the app's origin, for every kind (decision 068)", () => {
    for (const [kind, code] of [
      ["html", "<p>x</p>"],
      ["svg", "<svg></svg>"],
      ["markdown", "# x"],
      ["csv", "a,b"],
      ["mermaid", "graph TD; A-->B"],
      ["react", "export default function App() { return <p/>; }"],
    ] as const) {
      const doc = previewDocument(kind, code, ORIGIN);
      expect(doc).toContain(
        '{ type: "cohort-artifact-height", height: height }, "http://cohort.test"',
      );
    }
  });

  it("cannot be broken out of by a source that closes its script", () => {
    const doc = previewDocument("mermaid", "graph TD; A[</script><img src=x>]-->B", ORIGIN);
    expect(doc).not.toContain("</script><img");
    expect(doc).toContain("A[\\u003c/script>\\u003cimg src=x>]");
  });
});

describe("Markdown and CSV as HTML", () => {
  it("turns no tag of a Markdown text into markup", () => {
    expect(markdownToHtml("# Plan\n\n<script>x()</script> and **bold** [a](javascript:x)")).toBe(
      "<h1>Plan</h1><p>&lt;script&gt;x()&lt;/script&gt; and <strong>bold</strong> a</p>",
    );
  });

  it("reads quoted CSV fields with commas, quotes and line breaks", () => {
    expect(parseCsv('name,note\n"Ada, L.","said ""hi""\nthen left"\r\nBob,\n')).toEqual([
      ["name", "note"],
      ["Ada, L.", 'said "hi"\nthen left'],
      ["Bob", ""],
    ]);
    expect(csvToHtml("a,b\n<1>,2")).toBe(
      "<table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>&lt;1&gt;</td><td>2</td></tr></tbody></table>",
    );
  });
});
