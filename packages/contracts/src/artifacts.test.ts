import { describe, expect, it } from "vitest";
import { artifactFrameCsp, artifactMetaCsp } from "./artifact-sandbox";
import { artifactKind, artifactTitle, findArtifacts } from "./artifacts";

describe("artifactKind", () => {
  it("knows the previewable kinds by their language tags", () => {
    expect(artifactKind("html", "<p>x</p>")).toBe("html");
    expect(artifactKind("SVG", "<svg/>")).toBe("svg");
    expect(artifactKind("xml", '<?xml version="1.0"?>\n<svg viewBox="0 0 1 1"/>')).toBe("svg");
    expect(artifactKind("xml", "<feed/>")).toBeNull();
    expect(artifactKind("md", "# T")).toBe("markdown");
    expect(artifactKind("mermaid", "graph TD; A-->B")).toBe("mermaid");
    expect(artifactKind("csv", "a,b")).toBe("csv");
    expect(artifactKind("python", "print(1)")).toBeNull();
    expect(artifactKind("html", "  \n")).toBeNull();
  });

  it("takes JSX and TSX for a React component only when it exports one", () => {
    expect(artifactKind("tsx", "export default function Page() { return <p/>; }")).toBe("react");
    expect(artifactKind("jsx", "function App() { return <p/>; }")).toBe("react");
    expect(artifactKind("tsx", "export const helper = () => <p/>;")).toBeNull();
  });
});

describe("findArtifacts", () => {
  it("finds finished blocks, numbered per kind, also inside lists, and skips an open fence", () => {
    const text = [
      "```html\n<p>a</p>\n```",
      "- item\n\n  ```html\n  <p>b</p>\n  ```",
      "```python\nprint(1)\n```",
      "```svg\n<svg/>",
    ].join("\n\n");
    expect(findArtifacts(text)).toEqual([
      { kind: "html", lang: "html", code: "<p>a</p>", ordinal: 1 },
      { kind: "html", lang: "html", code: "<p>b</p>", ordinal: 2 },
    ]);
  });
});

describe("artifactTitle", () => {
  it("takes a page's title, a document's heading or a component's name, else the kind", () => {
    expect(artifactTitle("html", "<title>Book club</title>")).toBe("Book club");
    expect(artifactTitle("markdown", "Intro\n\n## Loan rules\n")).toBe("Loan rules");
    expect(artifactTitle("react", "export default function Counter() {}")).toBe("Counter");
    expect(artifactTitle("csv", "a,b")).toBe("CSV table");
  });
});

describe("the preview's policy", () => {
  it("allows no connection and scripts only inline or from the library path", () => {
    const csp = artifactFrameCsp("https://cohort.example");
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'unsafe-inline' https://cohort.example/artifact-lib/;");
    expect(csp).not.toMatch(/connect-src|allow-same-origin/);
    expect(artifactMetaCsp("https://cohort.example")).not.toMatch(/sandbox|frame-ancestors/);
  });
});
