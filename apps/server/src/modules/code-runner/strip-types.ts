import { lazyModule } from "../../platform/lazy-module";

// Loaded on the first run_code call, not at start-up (decision 072).
const sucrase = lazyModule<typeof import("sucrase")>("sucrase");

/**
 * TypeScript to JavaScript for QuickJS, types removed and nothing else changed (decision 062:
 * sucrase, pure JavaScript, no native binary, no type checking).
 */
export function stripTypes(
  code: string,
): { ok: true; code: string } | { ok: false; error: string } {
  try {
    const out = sucrase().transform(code, {
      transforms: ["typescript"],
      disableESTransforms: true,
      filePath: "main.ts",
    });
    return { ok: true, code: out.code };
  } catch (e) {
    return {
      ok: false,
      error: `TypeScript could not be read: ${e instanceof Error ? e.message : String(e)}`,
    };
  }
}
