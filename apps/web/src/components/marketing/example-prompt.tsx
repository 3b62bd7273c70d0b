/** A sample first message, shown the way it would be typed into a session. */
export function ExamplePrompt({ prompt }: { prompt: string }) {
  return (
    <figure className="rounded-2xl border border-ink-200 bg-white p-6 shadow-xs">
      <figcaption className="text-xs font-semibold tracking-wide text-ink-500 uppercase">
        Try this as your first message
      </figcaption>
      <blockquote className="mt-3 text-base leading-7 text-ink-900">
        <p>{prompt}</p>
      </blockquote>
    </figure>
  );
}
