import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { build as esbuild } from "esbuild";
import { defineConfig, type Plugin, parseAst } from "vite";
// The contracts package is TypeScript: the config loader reads its file by its full name.
import {
  ARTIFACT_LIB_PREFIX,
  ARTIFACT_LIBRARIES,
} from "../../packages/contracts/src/artifact-sandbox.ts";
import {
  BLOG_INDEX_FILE,
  parseBlogPost,
  sortPosts,
  type TBlogIndex,
} from "../../packages/contracts/src/blog.ts";

/**
 * Marks each top-level schema of contracts (`const ZFoo = z.object(…).describe(…)`) as pure by
 * wrapping its initializer in an annotated arrow call. The `manualPureFunctions` hint below
 * covers a bare `z.…()` call but neither the methods chained on its result nor the calls in
 * its arguments, so without this a page that imports one constant from a contracts file (say
 * NATIVE_MODELS) would also ship every schema beside it, and with them all of zod. Contracts
 * holds only pure declarations (docs/conventions.md), so evaluating them lazily-or-never is safe.
 */
function pureContractSchemas(): Plugin {
  const contractsFile = /packages[\\/]contracts[\\/]src[\\/](?!.*\.test\.ts$).*\.ts$/;
  return {
    name: "cohort:pure-contract-schemas",
    enforce: "pre",
    transform(code, id) {
      if (!contractsFile.test(id)) return null;
      const program = parseAst(code, { lang: "ts" }, id);
      const spans: { start: number; end: number }[] = [];
      for (const statement of program.body) {
        const declaration =
          statement.type === "ExportNamedDeclaration" ? statement.declaration : statement;
        if (declaration?.type !== "VariableDeclaration") continue;
        for (const declarator of declaration.declarations) {
          if (declarator.init?.type === "CallExpression") spans.push(declarator.init);
        }
      }
      let out = code;
      for (const { start, end } of spans.reverse()) {
        out = `${out.slice(0, start)}/* @__PURE__ */ (() => ${out.slice(start, end)})()${out.slice(end)}`;
      }
      return { code: out, map: null };
    },
  };
}

/**
 * Writes the blog's post list (content/blog/*.md) into the build as `blog/posts.json`: the
 * server answers /blog/{slug} and writes the RSS feed from it (docs/decisions/030).
 */
function blogIndex(): Plugin {
  const dir = path.join(import.meta.dirname, "src/content/blog");
  return {
    name: "cohort:blog-index",
    apply: "build",
    generateBundle() {
      const posts = readdirSync(dir)
        .filter((name) => name.endsWith(".md"))
        .map((name) => parseBlogPost(name, readFileSync(path.join(dir, name), "utf8")));
      const index: TBlogIndex = {
        posts: sortPosts(posts).map(({ slug, title, date, summary }) => ({
          slug,
          title,
          date,
          summary,
        })),
      };
      this.emitFile({ type: "asset", fileName: BLOG_INDEX_FILE, source: JSON.stringify(index) });
    },
  };
}

/**
 * Writes the artifact preview's libraries into the build under `artifact-lib/` (decision 063):
 * React with ReactDOM's client and the JSX transform (Sucrase) as small global bundles, and
 * Mermaid's own single-file build. The sandboxed preview frame loads each only when it
 * shows an artifact that needs it; the app itself never loads them.
 */
function artifactLibraries(): Plugin {
  const webDir = import.meta.dirname;
  const bundle = async (contents: string) => {
    const result = await esbuild({
      stdin: { contents, resolveDir: webDir, loader: "js" },
      bundle: true,
      format: "iife",
      minify: true,
      write: false,
      target: "es2020",
      platform: "browser",
      define: { "process.env.NODE_ENV": '"production"' },
      logLevel: "warning",
    });
    return result.outputFiles[0]?.contents ?? new Uint8Array();
  };
  const libraries = async (): Promise<Record<string, Uint8Array>> => ({
    [ARTIFACT_LIBRARIES.react]: await bundle(
      'import * as React from "react"; import * as ReactDOM from "react-dom/client"; globalThis.React = React; globalThis.ReactDOM = ReactDOM;',
    ),
    [ARTIFACT_LIBRARIES.jsx]: await bundle(
      'import { transform } from "sucrase"; globalThis.sucrase = { transform };',
    ),
    [ARTIFACT_LIBRARIES.mermaid]: readFileSync(
      path.join(webDir, "../../node_modules/mermaid/dist/mermaid.min.js"),
    ),
  });
  let forDev: Promise<Record<string, Uint8Array>> | null = null;
  return {
    name: "cohort:artifact-libraries",
    async generateBundle() {
      const dir = ARTIFACT_LIB_PREFIX.replace(/^\//, "");
      for (const [name, source] of Object.entries(await libraries())) {
        this.emitFile({ type: "asset", fileName: `${dir}${name}`, source });
      }
    },
    // `npm run dev`: the same files, with the headers the server sends (decision 063).
    configureServer(server) {
      server.middlewares.use(ARTIFACT_LIB_PREFIX, (request, response, next) => {
        const name = (request.url ?? "").replace(/^\//, "").split("?")[0] ?? "";
        forDev ??= libraries();
        void forDev.then((files) => {
          const file = files[name];
          if (!file) return next();
          response.setHeader("content-type", "text/javascript; charset=utf-8");
          response.setHeader("access-control-allow-origin", "*");
          response.setHeader("cross-origin-resource-policy", "cross-origin");
          response.end(file);
        }, next);
      });
    },
  };
}

/** The API server of `npm run dev`; the built app is served by that same server in production. */
const API_ORIGIN = "http://127.0.0.1:3000";

export default defineConfig({
  plugins: [pureContractSchemas(), react(), tailwindcss(), blogIndex(), artifactLibraries()],
  server: {
    port: 5173,
    strictPort: true,
    proxy: {
      // "/api" alone is the API overview page of the web app; only "/api/…" is the API.
      "^/api/": { target: API_ORIGIN },
      "/socket.io": { target: API_ORIGIN, ws: true },
      // The artifact preview's frame document (its policy comes from the server).
      "/artifact-frame": { target: API_ORIGIN },
    },
  },
  preview: {
    port: 4173,
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: false,
    target: "es2022",
    rolldownOptions: {
      treeshake: {
        // contracts holds only schemas, types, constants and pure functions (docs/conventions.md),
        // but its top-level zod calls look like side effects to the bundler; without these two
        // hints importing PLANS or ERROR_CODES would ship all of zod with the page that imports
        // them.
        moduleSideEffects: [{ test: /packages[\\/]contracts[\\/]src[\\/]/, sideEffects: false }],
        manualPureFunctions: ["z"],
      },
    },
  },
});
