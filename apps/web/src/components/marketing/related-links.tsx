import { Link } from "react-router";
import { Container } from "../container";

/** The sibling pages at the foot of a marketing page: "Also compare: A · B · C". */
export function RelatedLinks({
  label,
  links,
}: {
  label: string;
  links: readonly { to: string; name: string }[];
}) {
  return (
    <Container className="pt-12 text-sm text-ink-600">
      <p>
        {label}{" "}
        {links.map((link, index) => (
          <span key={link.to}>
            <Link to={link.to} className="font-medium text-brand-700 hover:underline">
              {link.name}
            </Link>
            {index < links.length - 1 ? " · " : ""}
          </span>
        ))}
      </p>
    </Container>
  );
}
