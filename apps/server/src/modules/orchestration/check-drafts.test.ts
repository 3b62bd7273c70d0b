import { describe, expect, it } from "vitest";
import { codeOfDraft } from "./check-drafts";

describe("codeOfDraft", () => {
  it("joins a draft's blocks of its main language when they hold tests", () => {
    const draft =
      "Code:\n```python\ndef add(a, b):\n    return a + b\n```\nTests:\n```py\ndef test_add():\n    assert add(1, 2) == 3\n```\n```bash\npytest\n```";
    expect(codeOfDraft(draft)).toEqual({
      language: "python",
      code: "def add(a, b):\n    return a + b\n\n\ndef test_add():\n    assert add(1, 2) == 3\n",
    });
  });

  it("finds unittest cases and JavaScript test functions", () => {
    expect(
      codeOfDraft("```python\nimport unittest\nclass T(unittest.TestCase):\n    pass\n```")
        ?.language,
    ).toBe("python");
    expect(codeOfDraft("```ts\nfunction testSum(): void {}\n```")?.language).toBe("typescript");
  });

  it("drops `export` from JavaScript and TypeScript, which run as one script", () => {
    expect(
      codeOfDraft(
        "```ts\nexport function sum(a: number, b: number) { return a + b; }\nexport default class A {}\n```\n```ts\nfunction testSum() {}\n```",
      )?.code,
    ).toBe(
      "function sum(a: number, b: number) { return a + b; }\nclass A {}\n\n\nfunction testSum() {}\n",
    );
  });

  it("leaves drafts without code, or code without tests, alone", () => {
    expect(codeOfDraft("Just prose.")).toBeNull();
    expect(codeOfDraft("```python\nprint('hi')\n```")).toBeNull();
  });
});
