import { BLOG_FEED_PATH } from "@cohort/contracts";
import { Link } from "react-router";
import { Container } from "../../components/container";
import { CtaBand } from "../../components/marketing/cta-band";
import { PageHeader } from "../../components/marketing/page-header";
import { useDocumentMeta } from "../../lib/dom/use-document-meta";
import { formatDay } from "../../lib/format/dates";
import { POSTS } from "./posts";
import { useFeedLink } from "./use-feed-link";

/** /blog: the posts in content/blog, newest first, each linking to its own page. */
export function BlogPage() {
  useDocumentMeta({
    title: "Blog",
    description: "How Cohort works, from the team that builds it: runs, credits and your own keys.",
  });
  useFeedLink();
  return (
    <>
      <PageHeader
        eyebrow="Blog"
        title="How Cohort works"
        lead="Notes from the team on what the product does and why it does it that way."
      >
        <a
          href={BLOG_FEED_PATH}
          className="inline-flex items-center gap-2 text-sm font-semibold text-brand-700 hover:underline"
        >
          <FeedIcon />
          RSS feed
        </a>
      </PageHeader>
      <Container className="py-14 sm:py-20">
        <ul className="grid gap-6 md:grid-cols-2">
          {POSTS.map((post) => (
            <li key={post.slug}>
              <article
                aria-labelledby={`post-${post.slug}`}
                data-testid="blog-post-card"
                className="relative flex h-full flex-col rounded-2xl border border-ink-200 p-6 transition-colors focus-within:border-brand-300 hover:border-brand-300 sm:p-8"
              >
                <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-ink-600">
                  <time dateTime={post.date}>{formatDay(post.date, true)}</time>
                  <span aria-hidden="true">·</span>
                  <span>{post.readingMinutes} min read</span>
                </p>
                <h2
                  id={`post-${post.slug}`}
                  className="mt-3 text-xl font-semibold tracking-tight text-ink-950"
                >
                  {/* The whole card is the link's target area; the title is its name. */}
                  <Link
                    to={`/blog/${post.slug}`}
                    className="after:absolute after:inset-0 after:rounded-2xl hover:text-brand-700"
                  >
                    {post.title}
                  </Link>
                </h2>
                <p className="mt-3 flex-1 text-sm leading-6 text-ink-600">{post.summary}</p>
                <p aria-hidden="true" className="mt-6 text-sm font-semibold text-brand-700">
                  Read the post →
                </p>
              </article>
            </li>
          ))}
        </ul>
      </Container>
      <CtaBand />
    </>
  );
}

function FeedIcon() {
  return (
    <svg viewBox="0 0 20 20" aria-hidden="true" className="size-4" fill="currentColor">
      <circle cx="5" cy="15" r="2" />
      <path d="M3 9a8 8 0 0 1 8 8h-2.5A5.5 5.5 0 0 0 3 11.5V9Z" />
      <path d="M3 3.5A13.5 13.5 0 0 1 16.5 17H14A11 11 0 0 0 3 6V3.5Z" />
    </svg>
  );
}
