import { MarketingSection, MarketingSectionTitle } from "./marketing-section";

/** A marketing page's titled section of three-across cards, each a title and a short text. */
export function CardsSection({
  id,
  title,
  items,
}: {
  /** The heading's id, naming the section. */
  id: string;
  title: string;
  items: readonly { title: string; text: string }[];
}) {
  return (
    <MarketingSection id={id}>
      <MarketingSectionTitle id={id}>{title}</MarketingSectionTitle>
      <ul className="mt-8 grid gap-6 md:grid-cols-3">
        {items.map((item) => (
          <li key={item.title} className="rounded-2xl border border-ink-200 p-6">
            <h3 className="font-semibold text-ink-950">{item.title}</h3>
            <p className="mt-2 text-sm leading-6 text-ink-600">{item.text}</p>
          </li>
        ))}
      </ul>
    </MarketingSection>
  );
}
