import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { highlight } from "./highlight";
import { Markdown } from "./markdown";
import { parseInline, parseMarkdown, safeHref } from "./parse-markdown";

const html = (text: string) => renderToStaticMarkup(<Markdown text={text} />);

describe("parseMarkdown", () => {
  it("reads headings, paragraphs, rules and quotes", () => {
    const blocks = parseMarkdown("## Plan\n\nFirst line\nsecond line\n\n---\n\n> quoted");
    expect(blocks.map((b) => b.type)).toEqual(["heading", "paragraph", "rule", "quote"]);
    expect(blocks[0]).toMatchObject({ type: "heading", level: 2 });
  });

  it("reads ordered lists with their start and nested bullet lists", () => {
    const [list] = parseMarkdown(
      "3. **Scope**: agree\n4. Build\n   - slice one\n   - slice two\n5. Ship",
    );
    expect(list).toMatchObject({ type: "list", ordered: true, start: 3, tight: true });
    if (list?.type !== "list") throw new Error("not a list");
    expect(list.items).toHaveLength(3);
    expect(list.items[1]?.map((b) => b.type)).toEqual(["paragraph", "list"]);
  });

  it("reads fenced code with its language, also while the fence is still open", () => {
    expect(parseMarkdown("```ts\nconst a = 1;\n```\nafter")).toEqual([
      { type: "code", lang: "ts", text: "const a = 1;", closed: true },
      { type: "paragraph", children: [{ type: "text", text: "after" }] },
    ]);
    expect(parseMarkdown("```python\ndef f():\n    return 1")).toEqual([
      { type: "code", lang: "python", text: "def f():\n    return 1", closed: false },
    ]);
  });

  it("reads tables with alignment", () => {
    const [table] = parseMarkdown("| Role | Score |\n|:--|--:|\n| Coder | 8 |");
    expect(table).toMatchObject({ type: "table", align: ["left", "right"] });
  });

  it("reads inline emphasis, code and links", () => {
    expect(parseInline("a **b** _c_ `d` [e](https://x.test)")).toEqual([
      { type: "text", text: "a " },
      { type: "strong", children: [{ type: "text", text: "b" }] },
      { type: "text", text: " " },
      { type: "em", children: [{ type: "text", text: "c" }] },
      { type: "text", text: " " },
      { type: "code", text: "d" },
      { type: "text", text: " " },
      { type: "link", href: "https://x.test", children: [{ type: "text", text: "e" }] },
    ]);
    expect(parseInline("snake_case_name stays")).toEqual([
      { type: "text", text: "snake_case_name stays" },
    ]);
  });
});

describe("links, as model output and agreement texts both read them", () => {
  // There were two readers, which disagreed here: the agreement's linked site paths and took
  // `https:host`, and cut a link at the first ")"; the chat's refused site paths.
  it("links a path on this site, such as the agreement's privacy policy", () => {
    expect(parseInline("see our [Privacy Policy](/privacy).")).toEqual([
      { type: "text", text: "see our " },
      { type: "link", href: "/privacy", children: [{ type: "text", text: "Privacy Policy" }] },
      { type: "text", text: "." },
    ]);
    expect(html("[Privacy Policy](/privacy)")).toContain('href="/privacy"');
  });

  it("keeps parentheses inside a link's address", () => {
    expect(parseInline("[Foo](https://en.wikipedia.org/wiki/Foo_(bar)) next")).toEqual([
      {
        type: "link",
        href: "https://en.wikipedia.org/wiki/Foo_(bar)",
        children: [{ type: "text", text: "Foo" }],
      },
      { type: "text", text: " next" },
    ]);
  });

  it("shows only the text of a link that would leave the site in disguise", () => {
    for (const target of ["//evil.test", "/\\evil.test", "https:evil.test", "javascript:x"]) {
      expect(parseInline(`[click](${target})`)).toEqual([{ type: "text", text: "click" }]);
    }
  });

  it("reads an agreement: headings, bold, lists and rules", () => {
    const blocks = parseMarkdown(
      "# Cohort User Agreement\n\n**Version 1.0**\n\n## 1. Lists\n- one\n- two\n\n---",
    );
    expect(blocks.map((b) => b.type)).toEqual(["heading", "paragraph", "heading", "list", "rule"]);
  });
});

describe("sanitising", () => {
  it("never turns HTML in the text into markup", () => {
    const out = html('<script>alert(1)</script>\n\n<img src=x onerror="alert(1)">\n\n**<b>x</b>**');
    expect(out).not.toContain("<script");
    expect(out).not.toContain("<img");
    expect(out).not.toContain("<b>");
    expect(out).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  });

  it("keeps only web, mail and same-site links, opened without an opener", () => {
    expect(safeHref("javascript:alert(1)")).toBeNull();
    expect(safeHref("JAVASCRIPT:alert(1)")).toBeNull();
    expect(safeHref("data:text/html,hi")).toBeNull();
    expect(safeHref("//evil.test")).toBeNull();
    expect(safeHref("/\\evil.test")).toBeNull();
    expect(safeHref("https:evil.test")).toBeNull();
    expect(safeHref("mailto:a@b.test")).toBe("mailto:a@b.test");
    expect(safeHref("/privacy")).toBe("/privacy");
    const out = html("[bad](javascript:alert(1)) [good](https://cohort.test/a?b=1)");
    expect(out).not.toContain("javascript:");
    expect(out).toContain("bad");
    expect(out).toContain('href="https://cohort.test/a?b=1"');
    expect(out).toContain('rel="noopener noreferrer"');
    expect(out).toContain('target="_blank"');
  });

  it("allows images from the web and inline raster or SVG data only", () => {
    expect(html("![a](javascript:alert(1))")).not.toContain("<img");
    expect(html("![a](data:text/html;base64,xx)")).not.toContain("<img");
    expect(html("![chart](data:image/svg+xml;base64,PHN2Zz4=)")).toContain("<img");
  });

  it("shows a picture a model made (own or shared path) with a download link, and no other path", () => {
    const id = "0f8fad5b-d9cb-469f-a165-70867728950e";
    const own = html(`![A lighthouse](/api/images/${id})`);
    expect(own).toContain(`<img src="/api/images/${id}" alt="A lighthouse"`);
    expect(own).toContain(`href="/api/images/${id}?download=1" download=""`);
    expect(own).toContain(">Download image</a>");
    const token = "a".repeat(43);
    expect(html(`![x](/api/share/${token}/images/${id})`)).toContain(
      `href="/api/share/${token}/images/${id}?download=1"`,
    );
    expect(html("![x](/api/images/../users/profile)")).not.toContain("<img");
    expect(html("![x](/api/documents/1/download)")).not.toContain("<img");
  });

  it("renders code blocks with a Copy button and highlighted tokens", () => {
    const out = html('```js\nconst answer = "42"; // why\n```');
    expect(out).toContain(">Copy<");
    expect(out).toContain("JavaScript");
    expect(out).toContain('<span class="text-violet-300">const</span>');
    expect(out).toContain('<span class="text-emerald-300">&quot;42&quot;</span>');
    expect(out).toContain('<span class="text-slate-400 italic">// why</span>');
  });
});

describe("highlight", () => {
  const types = (code: string, lang: string) =>
    highlight(code, lang)
      .filter((t) => t.text.trim())
      .map((t) => `${t.type}:${t.text.trim()}`);

  it("keeps every character, in order", () => {
    const code = 'def f(x):\n    """doc"""\n    return x ** 2  # square\n';
    expect(
      highlight(code, "python")
        .map((t) => t.text)
        .join(""),
    ).toBe(code);
  });

  it("knows Python", () => {
    expect(types("@dataclass\ndef total(items): return None", "python")).toEqual([
      "decorator:@dataclass",
      "keyword:def",
      "function:total",
      "punctuation:(",
      "variable:items",
      "punctuation:)",
      "operator::",
      "keyword:return",
      "literal:None",
    ]);
  });

  it("knows JSON keys from values", () => {
    expect(types('{"a": "b", "n": 1.5, "ok": true}', "json")).toEqual([
      "punctuation:{",
      'property:"a"',
      "punctuation::",
      'string:"b"',
      "punctuation:,",
      'property:"n"',
      "punctuation::",
      "number:1.5",
      "punctuation:,",
      'property:"ok"',
      "punctuation::",
      "literal:true",
      "punctuation:}",
    ]);
  });

  it("knows shell, CSS, SQL and HTML", () => {
    expect(types("npx vitest run --project unit # tests", "bash")).toContain("attr:--project");
    expect(types("npx vitest run # tests", "bash")).toContain("comment:# tests");
    expect(types("echo $HOME", "sh")).toContain("variable:$HOME");
    expect(types(".card { color: #fff; }", "css")).toEqual([
      "tag:.card",
      "punctuation:{",
      "property:color",
      "punctuation::",
      "number:#fff",
      "punctuation:;",
      "punctuation:}",
    ]);
    expect(types("SELECT id FROM t WHERE a = 'x';", "sql")).toEqual([
      "keyword:SELECT",
      "plain:id",
      "keyword:FROM",
      "plain:t",
      "keyword:WHERE",
      "plain:a",
      "operator:=",
      "string:'x'",
      "punctuation:;",
    ]);
    expect(types('<a href="/x">Hi there</a>', "html")).toEqual([
      "tag:<a",
      "attr:href",
      "operator:=",
      'string:"/x"',
      "tag:>",
      "plain:Hi there",
      "tag:</a>",
    ]);
  });

  it("tells JSX tags from TypeScript generics", () => {
    expect(types("const m = new Map<string, number>();", "tsx")).not.toContain("tag:<string");
    expect(types("return <Button onClick={go} />;", "tsx")).toContain("tag:<Button");
  });

  it("returns unknown languages as plain text", () => {
    expect(highlight("whatever <x>", "brainfuck")).toEqual([
      { type: "plain", text: "whatever <x>" },
    ]);
  });
});
