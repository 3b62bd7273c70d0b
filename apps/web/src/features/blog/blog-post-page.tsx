import type { TBlogPost } from "@cohort/contracts";
import { lazy } from "react";
import { Link, useParams } from "react-router";
import { Container } from "../../components/container";
import { Markdown } from "../../components/markdown/markdown";
import { CtaBand } from "../../components/marketing/cta-band";
import { PageHeader } from "../../components/marketing/page-header";
import { useDocumentMeta } from "../../lib/dom/use-document-meta";
import { formatDay } from "../../lib/format/dates";
import { findPost } from "./posts";
import { useFeedLink } from "./use-feed-link";

const NotFoundPage = lazy(() =>
  import("../errors/not-found-page").then((m) => ({ default: m.NotFoundPage })),
);

/** /blog/{slug}: one post, rendered from its Markdown file; an unknown slug is the 404 page. */
export function BlogPostPage() {
  const { slug = "" } = useParams();
  const post = findPost(slug);
  return post ? <Post post={post} /> : <NotFoundPage />;
}

function Post({ post }: { post: TBlogPost }) {
  useDocumentMeta({ title: post.title, description: post.summary });
  useFeedLink();
  return (
    <article>
      <PageHeader eyebrow="Blog" title={post.title} lead={post.summary}>
        <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-ink-600">
          <time dateTime={post.date}>{formatDay(post.date, true)}</time>
          <span aria-hidden="true">·</span>
          <span>{post.readingMinutes} min read</span>
          <span aria-hidden="true">·</span>
          <span>The Cohort team</span>
        </p>
      </PageHeader>
      <Container size="prose" className="py-12 sm:py-16">
        {/* A post reads at body size; the renderer's default is sized for chat lanes. */}
        <div data-testid="blog-post-body" className="[&>div]:text-base [&>div]:leading-7">
          <Markdown text={post.body} topHeading="h2" />
        </div>
        <p className="mt-12 border-t border-ink-200 pt-6 text-sm">
          <Link to="/blog" className="font-semibold text-brand-700 hover:underline">
            ← All posts
          </Link>
        </p>
      </Container>
      <CtaBand />
    </article>
  );
}
