import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

/**
 * The axe-core violations inside the elements matched by `selectors` (WCAG 2.1 A and AA
 * rules), as "rule: element, element" lines; empty when there are none. Axe goes in through
 * the DevTools protocol, which the page's CSP does not govern. It does not descend into
 * frames: a sandboxed preview has an opaque origin (its `title` is checked from outside).
 */
export async function axeViolations(page: Page, selectors: string[]): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (include) => {
    const axe = (window as unknown as { axe: AxeApi }).axe;
    const result = await axe.run(
      { include: include.map((selector) => [selector]) },
      {
        iframes: false,
        runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
      },
    );
    return result.violations.map(
      (violation) =>
        `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
    );
  }, selectors);
}

interface AxeApi {
  run(
    context: unknown,
    options: unknown,
  ): Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }>;
}
