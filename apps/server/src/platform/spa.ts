import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { BLOG_FEED_PATH, ERROR_CODES, matchAppRoute, type TRouteMatch } from "@cohort/contracts";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { isArtifactLibrary, registerArtifactFrame } from "./artifact-sandbox";
import { type BlogFeedPost, readBlogPosts, renderBlogFeed } from "./blog-feed";
import { errorBody } from "./errors";

const NOINDEX_META = '<meta name="robots" content="noindex" />';

/** `/api` itself is the SPA's API overview page; everything below `/api/` is the API. */
function isApiPath(url: string): boolean {
  return url.startsWith("/api/");
}

/**
 * Whether a matched app route is really there. The debug and test pages of the route table exist
 * only outside production unless DEBUG_ROUTES=1; a blog post only when the build has it.
 */
function routeExists(
  match: TRouteMatch,
  options: { debugRoutes: boolean; blogSlugs: ReadonlySet<string> },
): boolean {
  if (match.route.access === "debug") return options.debugRoutes;
  if (match.route.path === "/blog/:slug") return options.blogSlugs.has(match.params.slug ?? "");
  return true;
}

/**
 * Serves the built web app: hashed assets with a year of caching, and index.html for every
 * path of the route table (200) or any other path (404, marked noindex), so crawlers and
 * the browser see the same answer the app will render. Unknown /api paths get a JSON 404.
 * The blog's RSS feed is written here from the build's post list, with absolute links.
 */
export async function registerSpa(app: FastifyInstance, webDistDir: string) {
  const indexFile = path.join(webDistDir, "index.html");
  const built = existsSync(indexFile);
  const indexHtml = built ? readFileSync(indexFile, "utf8") : null;
  const notFoundHtml = indexHtml?.replace("</head>", `${NOINDEX_META}</head>`) ?? null;
  const posts: readonly BlogFeedPost[] = readBlogPosts(webDistDir);
  const exists = {
    debugRoutes: app.config.debugRoutes,
    blogSlugs: new Set(posts.map((post) => post.slug)),
  };
  const feed = renderBlogFeed(posts, app.config.publicUrl);

  app.get(BLOG_FEED_PATH, { schema: { hide: true } }, async (_request, reply) =>
    reply
      .header("cache-control", "public, max-age=3600")
      .type("application/rss+xml; charset=utf-8")
      .send(feed),
  );

  // Pages that name no icon (a JSON answer opened in a tab, a PDF) make browsers ask for
  // /favicon.ico; the app's icon is an SVG, so that request is sent there rather than 404.
  app.get("/favicon.ico", { schema: { hide: true } }, async (_request, reply) =>
    reply.header("cache-control", "public, max-age=86400").redirect("/favicon.svg", 301),
  );

  registerArtifactFrame(app);

  if (built) {
    // One `/*` route answers the built files, known by name at start: `@fastify/static`'s own
    // routes (`wildcard: false`) were a GET and a HEAD route per file, over 300, held for the
    // process's life (decision 085). Any other path goes to the app's routes, as before.
    await app.register(fastifyStatic, {
      root: webDistDir,
      serve: false,
      index: false,
      setHeaders: (res, filePath) => {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header(
          "cache-control",
          immutable ? "public, max-age=31536000, immutable" : "public, max-age=3600",
        );
        if (isArtifactLibrary(webDistDir, filePath)) {
          res.header("access-control-allow-origin", "*");
          res.header("cross-origin-resource-policy", "cross-origin");
        }
      },
    });
  }

  function sendHtml(reply: FastifyReply, status: number, html: string, noindex = false) {
    reply.status(status).header("cache-control", "no-cache").type("text/html; charset=utf-8");
    if (status === 404) reply.header("x-robots-tag", "noindex");
    else if (noindex) reply.header("x-robots-tag", "noindex, nofollow");
    return reply.send(html);
  }

  async function answerPath(request: FastifyRequest, reply: FastifyReply) {
    const url = request.url;
    if (isApiPath(url) || !["GET", "HEAD"].includes(request.method)) {
      return reply
        .status(404)
        .send(
          errorBody(
            ERROR_CODES.notFound,
            `No API route matches ${request.method} ${url.split("?")[0]}.`,
          ),
        );
    }
    const match = matchAppRoute(url);
    if (!indexHtml || !notFoundHtml) {
      return reply
        .status(match ? 503 : 404)
        .type("text/plain; charset=utf-8")
        .send(
          "The Cohort web app has not been built yet. Run `npm start` (it builds it first) or `npm run build`.",
        );
    }
    if (!match || !routeExists(match, exists)) return sendHtml(reply, 404, notFoundHtml);
    if (match.route.localImagesOnly) {
      const csp = reply.getHeader("content-security-policy");
      if (typeof csp === "string") {
        reply.header(
          "content-security-policy",
          csp.replace(/img-src [^;]*/, "img-src 'self' data: blob:"),
        );
      }
    }
    // A route kept out of search engines (shared sessions) says so before any script runs.
    return match.route.noindex
      ? sendHtml(reply, 200, notFoundHtml, true)
      : sendHtml(reply, 200, indexHtml);
  }

  app.setNotFoundHandler(answerPath);
  if (built) {
    const files = builtFiles(webDistDir);
    app.get<{ Params: { "*": string } }>(
      "/*",
      { schema: { hide: true } },
      async (request, reply) => {
        // The router hands the path decoded (`/%69ndex.html` is `/index.html`), without the query.
        const file = request.params["*"];
        return files.has(file) ? reply.sendFile(file) : answerPath(request, reply);
      },
    );
  }
}

/** Every file of the build, by its path below the build's folder (`assets/index-abc.js`). */
function builtFiles(webDistDir: string): ReadonlySet<string> {
  const entries = readdirSync(webDistDir, { recursive: true, withFileTypes: true });
  return new Set(
    entries
      .filter((entry) => entry.isFile())
      .map((entry) => {
        const relative = path.relative(webDistDir, path.join(entry.parentPath, entry.name));
        return relative.split(path.sep).join("/");
      }),
  );
}
