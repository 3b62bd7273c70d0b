import { Container } from "../../components/container";
import { CtaBand } from "../../components/marketing/cta-band";
import { PageHeader } from "../../components/marketing/page-header";
import { useDocumentMeta } from "../../lib/dom/use-document-meta";
import { POSTS } from "./posts";

const dateFormat = new Intl.DateTimeFormat("en-US", {
  year: "numeric",
  month: "long",
  day: "numeric",
  timeZone: "UTC",
});

export function BlogPage() {
  useDocumentMeta({
    title: "Blog",
    description:
      "Notes from the Cohort team on multi-agent AI, credit budgets, critic loops and the Co* models.",
  });
  return (
    <>
      <PageHeader
        eyebrow="Blog"
        title="Notes from the team"
        lead="How we design, build and measure Cohort — and what we learn along the way."
      />
      <Container className="py-14 sm:py-20">
        <ul className="grid gap-6 md:grid-cols-2">
          {POSTS.map((post) => (
            <li key={post.slug}>
              <article
                aria-labelledby={`post-${post.slug}`}
                className="flex h-full flex-col rounded-2xl border border-ink-200 p-6 sm:p-8"
              >
                <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-ink-600">
                  <time dateTime={post.date}>
                    {dateFormat.format(new Date(`${post.date}T00:00:00Z`))}
                  </time>
                  <span aria-hidden="true">·</span>
                  <span className="font-medium text-brand-700">{post.tag}</span>
                  <span aria-hidden="true">·</span>
                  <span>{post.readingMinutes} min read</span>
                </p>
                <h2
                  id={`post-${post.slug}`}
                  className="mt-3 text-xl font-semibold tracking-tight text-ink-950"
                >
                  {post.title}
                </h2>
                <div className="mt-3 flex-1 space-y-3 text-sm leading-6 text-ink-600">
                  {post.summary.map((paragraph) => (
                    <p key={paragraph}>{paragraph}</p>
                  ))}
                </div>
                <p className="mt-6 text-sm font-medium text-ink-900">{post.author}</p>
              </article>
            </li>
          ))}
        </ul>
      </Container>
      <CtaBand />
    </>
  );
}
