import type { TAdminSection } from "@cohort/contracts";
import { useParams } from "react-router";
import { AgreementsSection } from "./agreements-section";
import { AnalyticsSection } from "./analytics-section";
import { AuditSection } from "./audit-section";
import { LogsSection } from "./logs-section";
import { ModelsSection } from "./models-section";
import { OutboxSection } from "./outbox-list";
import { UsersSection } from "./users-section";
import { WorkspacesSection } from "./workspaces-section";

const SECTIONS: Record<TAdminSection, () => React.JSX.Element> = {
  users: UsersSection,
  agreements: AgreementsSection,
  models: ModelsSection,
  logs: LogsSection,
  analytics: AnalyticsSection,
  outbox: OutboxSection,
  audit: AuditSection,
  workspaces: WorkspacesSection,
};

/** `/admin/:section`: the route table only lets the listed sections through. */
export function AdminSectionPage() {
  const { section } = useParams();
  const Section = SECTIONS[section as TAdminSection];
  return <Section key={section} />;
}
